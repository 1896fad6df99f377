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
    /// Where the next physical line starts, and its 0-based number.
    private var position: String.Index
    private var physicalLine = 0
    /// A line read ahead to see whether it continues the previous one.
    private var pending: (range: Range<String.Index>, number: Int)?

    init(_ source: String) {
        var body = Substring(source)
        if body.utf8.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst() }
        text = body
        position = body.startIndex
    }

    /// The next physical line, found by scanning bytes; nil at the end of the text.
    /// Lines are found as they are read: a 55 MB calendar has 1.5 million of them,
    /// and a table of their ranges cost 24 MB.
    private mutating func physical() -> (range: Range<String.Index>, number: Int)? {
        if let line = pending { pending = nil; return line }
        guard !finished else { return nil }
        let number = physicalLine
        physicalLine += 1
        let bytes = text.utf8
        guard let found = bytes[position...].firstIndex(where: { $0 == ASCII.lf || $0 == ASCII.cr }) else {
            finished = true
            return (position..<bytes.endIndex, number)
        }
        var next = bytes.index(after: found)
        if bytes[found] == ASCII.cr, next < bytes.endIndex, bytes[next] == ASCII.lf { next = bytes.index(after: next) }
        defer { position = next }
        return (position..<found, number)
    }
    private var finished = false

    mutating func next() -> ContentLine? {
        while let (range, number) = physical() {
            var unfolded: String?
            while let following = physical() {
                guard let first = text.utf8[following.range].first, first == ASCII.space || first == ASCII.tab else {
                    pending = following
                    break
                }
                if unfolded == nil { unfolded = String(text[range]) }
                unfolded!.append(contentsOf: Substring(text[following.range].utf8.dropFirst()))
            }
            if let unfolded {
                if unfolded.utf8.allSatisfy({ $0 == ASCII.space || $0 == ASCII.tab }) { continue }
                return ContentLine(text: Substring(unfolded), line: number + 1)
            }
            if text.utf8[range].allSatisfy({ $0 == ASCII.space || $0 == ASCII.tab }) { continue }
            return ContentLine(text: text[range], line: number + 1)
        }
        return nil
    }
}
