/// RFC 5545 §3.3.11 TEXT escaping. Control characters other than newline are
/// stripped on the way out: several clients reject a feed that contains them.
public enum TextEscaping {
    public static func escape(_ text: String) -> String {
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == ASCII.semicolon || $0 == ASCII.comma || isControl(byte: $0) }) {
            return text   // the common case: nothing to escape (newlines are controls here)
        }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": if !previousWasCR { out += "\\n" }
            case "\r": out += "\\n"
            default:
                if isControl(scalar) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    public static func unescape(_ value: String) -> String {
        guard value.utf8.contains(UInt8(ascii: "\\")) else { return value }
        var out = ""
        var iterator = value.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else { out.unicodeScalars.append(scalar); continue }
            guard let next = iterator.next() else { out += "\\"; break }
            switch next {
            case "n", "N": out += "\n"
            default: out.unicodeScalars.append(next)   // \\ \; \, and lenient for anything else
            }
        }
        return out
    }

    /// Splits a list value at commas that are not escaped.
    public static func splitList(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for character in value {
            if escaped { current.append(character); escaped = false; continue }
            if character == "\\" { current.append(character); escaped = true; continue }
            if character == "," { parts.append(current); current = ""; continue }
            current.append(character)
        }
        parts.append(current)
        return parts
    }

    /// Removes control characters (keeping HTAB) from a raw value before it is written.
    public static func stripControls(_ value: String) -> String {
        guard value.utf8.contains(where: isControl(byte:)) else { return value }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: value.unicodeScalars.filter { !isControl($0) })
        return String(out)
    }

    /// The same test on one UTF-8 byte: every control character is a single byte,
    /// and no byte of a multi-byte sequence is below 0x80.
    @inline(__always) static func isControl(byte: UInt8) -> Bool {
        (byte < 0x20 && byte != ASCII.tab) || byte == 0x7F
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F
    }
}
