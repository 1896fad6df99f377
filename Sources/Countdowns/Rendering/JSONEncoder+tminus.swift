import Foundation

extension JSONEncoder {
    /// How tminus writes JSON everywhere (feeds, the admin API, the CLI): sorted
    /// keys so that equal data gives equal bytes (and ETags), no escaped slashes
    /// in URLs, dates in ISO 8601.
    public static var tminus: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// The same, indented for people (`--format json` on the command line).
    public static var tminusPretty: JSONEncoder {
        let encoder = tminus
        encoder.outputFormatting.insert(.prettyPrinted)
        return encoder
    }
}
