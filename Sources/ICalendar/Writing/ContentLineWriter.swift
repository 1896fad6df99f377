/// Renders one property as an unfolded content line. Values are written as
/// stored (they are kept escaped) with control characters removed.
enum ContentLineWriter {
    static func line(_ property: Property) -> String {
        var line = property.name
        for parameter in property.parameters {
            line += ";" + parameter.name + "=" + parameter.values.map(parameterValue).joined(separator: ",")
        }
        return line + ":" + TextEscaping.stripControls(property.value)
    }

    /// DQUOTE cannot appear in a parameter value at all; `:`, `;` and `,` need quotes.
    static func parameterValue(_ raw: String) -> String {
        // Nearly every value (TZID=Europe/Berlin, VALUE=DATE) needs nothing done.
        if !raw.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == ASCII.colon || $0 == ASCII.semicolon
                                       || $0 == ASCII.comma || TextEscaping.isControl(byte: $0) }) {
            return raw
        }
        let clean = TextEscaping.stripControls(raw.replacingOccurrences(of: "\"", with: "'"))
        return clean.contains(where: { ":;,".contains($0) }) ? "\"" + clean + "\"" : clean
    }
}

extension String {
    func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }

    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard target.count == 1, replacement.count == 1 else { return self }
        return replacingOccurrences(of: Character(target), with: Character(replacement))
    }
}
