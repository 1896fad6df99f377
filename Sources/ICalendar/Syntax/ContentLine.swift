/// A logical (unfolded) line and the physical line it started on.
struct ContentLine: Sendable {
    var text: Substring
    var line: Int
}

/// Splits iCalendar text into unfolded logical lines. Accepts CRLF, bare LF and
/// bare CR (seen in real files and fuzz cases) and a leading byte-order mark.
/// Works on UTF-8 bytes: line breaks and folding whitespace are ASCII.
struct ContentLineReader: Sequence, IteratorProtocol {
    private let text: Substring
    private var lines: [Range<String.Index>] = []
    private var index = 0

    init(_ source: String) {
        var body = Substring(source)
        if body.utf8.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst() }
        text = body
        let bytes = body.utf8
        var lineStart = bytes.startIndex
        var position = bytes.startIndex
        while let found = bytes[position...].firstIndex(where: { $0 == ASCII.lf || $0 == ASCII.cr }) {
            lines.append(lineStart..<found)
            var next = bytes.index(after: found)
            if bytes[found] == ASCII.cr, next < bytes.endIndex, bytes[next] == ASCII.lf { next = bytes.index(after: next) }
            lineStart = next
            position = next
        }
        lines.append(lineStart..<bytes.endIndex)
    }

    mutating func next() -> ContentLine? {
        while index < lines.count {
            let start = index
            let range = lines[index]
            index += 1
            var unfolded: String?
            while index < lines.count, let first = text.utf8[lines[index]].first, first == ASCII.space || first == ASCII.tab {
                let continuation = text[lines[index]].utf8.dropFirst()
                if unfolded == nil { unfolded = String(text[range]) }
                unfolded!.append(contentsOf: Substring(continuation))
                index += 1
            }
            if unfolded == nil, text.utf8[range].allSatisfy({ $0 == ASCII.space || $0 == ASCII.tab }) { continue }
            if let unfolded {
                if unfolded.utf8.allSatisfy({ $0 == ASCII.space || $0 == ASCII.tab }) { continue }
                return ContentLine(text: Substring(unfolded), line: start + 1)
            }
            return ContentLine(text: text[range], line: start + 1)
        }
        return nil
    }
}
