/// RFC 5545 §3.3.11 TEXT escaping. Control characters other than newline are
/// stripped on the way out: several clients reject a feed that contains them.
public enum TextEscaping {
    public static func escape(_ text: String) -> String {
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
        guard value.contains("\\") else { return value }
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
        guard value.unicodeScalars.contains(where: isControl) else { return value }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: value.unicodeScalars.filter { !isControl($0) })
        return String(out)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F
    }
}
