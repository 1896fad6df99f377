/// What text and links may hold once they are in a countdown. Applied on the
/// way in (the admin JSON and the iCalendar reader), so every output (SVG
/// cards, pages, JSON, calendars) can rely on it.
public enum SafeText {
    /// Drops the characters XML 1.0 forbids (C0 controls other than tab, line
    /// feed and carriage return, and U+FFFE/U+FFFF). One of them in a title
    /// made the SVG card malformed XML, which browsers refuse to show.
    public static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isForbidden) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { !isForbidden($0) }))
    }

    public static func clean(_ text: String?) -> String? { text.map(clean) }

    /// The longest title a countdown keeps, in characters. Every output repeats
    /// the title (the countdown calendar once a day for months): 30 titles of
    /// 30 KB made a 62.8 MB calendar (issue #27). Calendar titles are short;
    /// anything longer belongs in the notes.
    public static let maxTitleCharacters = 500

    /// A title read from a calendar: cleaned, and cut at `maxTitleCharacters`
    /// with "…" (an import keeps the event; a form or the API refuses instead).
    public static func title(_ text: String) -> String {
        let cleaned = clean(text)
        guard cleaned.count > maxTitleCharacters else { return cleaned }
        return String(cleaned.prefix(maxTitleCharacters - 1)) + "…"
    }

    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0xFFFE, 0xFFFF: true
        default: false
        }
    }
}

/// Links a countdown may carry (`url`, `image`): `http`, `https`, and for
/// images the store's own `tminus-image:` blobs. Anything else (`javascript:`,
/// `data:`, `file:`) would run or read something in a viewer's browser.
public enum SafeLink {
    public enum Kind: Sendable { case url, image }

    /// The longest link kept: far above any real URL, far below what bloats every output.
    public static let maxLength = 2_048

    public static func isAllowed(_ link: String, as kind: Kind) -> Bool {
        // No control character (a NUL or a line break inside a URL splits headers and
        // calendar lines in whoever reads it next) and no space, which a URL never holds raw.
        guard link.utf8.count <= maxLength, !link.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }),
              let colon = link.firstIndex(of: ":") else { return false }
        let scheme = link[..<colon].lowercased()
        switch scheme {
        case "http", "https": return link.dropFirst(scheme.count + 1).hasPrefix("//")
        case "tminus-image": return kind == .image
        default: return false
        }
    }

    /// What is wrong with a link that `isAllowed` refuses, for a form or the API.
    public static func problem(_ link: String, as kind: Kind) -> String {
        if link.utf8.count > maxLength { return "is over \(maxLength) bytes" }
        if link.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) {
            return "holds a space or a control character (a line break, a NUL); a URL has none (write a space as %20)"
        }
        return kind == .image ? "must be an http or https URL (or an uploaded image)" : "must be an http or https URL"
    }

    /// The link when it is allowed, else nil.
    public static func filtered(_ link: String?, as kind: Kind) -> String? {
        guard let link, isAllowed(link, as: kind) else { return nil }
        return link
    }
}
