/// A JSON byte writer with Foundation's escaping: `"` and `\` escaped, control
/// characters as `\b \f \n \r \t` or `\u00XX`, everything else (slashes and
/// non-ASCII included) written as UTF-8.
public struct JSONBytes {
    public var bytes: [UInt8] = []

    public init() {}

    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func open() { bytes.append(UInt8(ascii: "{")) }
    public mutating func close() { bytes.append(UInt8(ascii: "}")) }

    /// `,"name":` (no comma for the first key of an object).
    public mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    public mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)   // a small string: no allocation
    }

    /// A finite number as JSONEncoder writes it: integral values without a
    /// fraction ("1"), others in the shortest form that reads back exactly ("0.769").
    public mutating func number(_ value: Double) {
        if value.rounded() == value, abs(value) < 1e15 { int(Int(value)) } else { bytes.append(contentsOf: String(value).utf8) }
    }

    /// A string, or `null`.
    public mutating func nullable(_ value: String?) {
        if let value { string(value) } else { raw("null") }
    }

    public mutating func strings(_ values: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x08: raw("\\b")
                case 0x0C: raw("\\f")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                default:
                    raw("\\u00")
                    let hex: StaticString = "0123456789abcdef"
                    hex.withUTF8Buffer { digits in
                        bytes.append(digits[Int(byte >> 4)])
                        bytes.append(digits[Int(byte & 0xF)])
                    }
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
