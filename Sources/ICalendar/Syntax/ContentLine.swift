/// A logical (unfolded) line and the physical line it started on.
struct ContentLine: Sendable {
    var text: Substring
    var line: Int
}

/// Splits iCalendar text into unfolded logical lines. Accepts CRLF, bare LF and
/// bare CR (seen in real files and fuzz cases) and a leading byte-order mark.
struct ContentLineReader: Sequence, IteratorProtocol {
    private var lines: [Substring]
    private var index = 0

    init(_ text: String) {
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        // Character treats "\r\n" as one grapheme, so split on all three forms.
        lines = body.split(omittingEmptySubsequences: false) { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }
    }

    mutating func next() -> ContentLine? {
        while index < lines.count {
            let start = index
            var text = lines[index]
            index += 1
            while index < lines.count, let first = lines[index].first, first == " " || first == "\t" {
                text += lines[index].dropFirst()
                index += 1
            }
            if text.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            return ContentLine(text: text, line: start + 1)
        }
        return nil
    }
}
