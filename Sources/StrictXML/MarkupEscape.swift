/// Text as XML or HTML character data or an attribute value: the one escape for
/// every page, SVG card and CalDAV answer tminus writes (issue #60: one home).
/// `'` is written `&#39;`, which HTML 4, HTML 5, SVG and XML all read.
public enum MarkupEscape {
    public static func text(_ raw: String) -> String {
        guard raw.contains(where: { "&<>\"'".contains($0) }) else { return raw }
        var out = ""
        out.reserveCapacity(raw.count + 16)
        for character in raw {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
