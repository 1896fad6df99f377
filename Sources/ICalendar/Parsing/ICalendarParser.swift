import Foundation

/// Reads `.ics` text into `VCalendar` values. Structure and line numbers come
/// from tminus's own reader; values are checked by `ComponentValidator`, with
/// libical judging RRULEs and time zones.
public enum ICalendarParser {
    public static func parse(_ text: String, options: ParseOptions = .lenient) throws(ICalendarError) -> ParseResult {
        guard !text.isEmpty else { throw .notICalendar("the input is empty") }
        var builder = ComponentTreeBuilder(options: options)
        try builder.consume(ContentLineReader(text))
        var diagnostics = builder.diagnostics
        var calendars: [VCalendar] = []
        for root in builder.roots {
            guard root.name == "VCALENDAR" else {
                diagnostics.append(Diagnostic(.error, line: root.line, component: root.name, uid: root.first("UID")?.text,
                                              "\(root.name) outside of a VCALENDAR is ignored"))
                continue
            }
            var component = root
            diagnostics += LibicalErrorProperties.extract(from: &component)
            let calendar = VCalendar(component: component)
            if options.validate { diagnostics += ComponentValidator(calendar: calendar).validate() }
            calendars.append(calendar)
        }
        guard !calendars.isEmpty else {
            if text.drop(while: \.isWhitespace).hasPrefix("[") && text.lowercased().contains("\"vcalendar\"") {
                throw .notICalendar("this is jCal (RFC 7265 JSON); tminus reads iCalendar text (.ics)")
            }
            if let root = builder.roots.first {
                throw .notICalendar("no VCALENDAR: the input holds a bare \(root.name) (line \(root.line)); wrap it in BEGIN:VCALENDAR … END:VCALENDAR")
            }
            // Says what the input looks like without quoting it: the input may be a
            // fetched page or a file a source named, and errors reach logs and clients.
            let start = text.drop(while: \.isWhitespace)
            let kind = start.hasPrefix("<") ? "it looks like HTML or XML" : start.hasPrefix("{") || start.hasPrefix("[") ? "it looks like JSON" : "line 1 is not BEGIN:VCALENDAR"
            throw .notICalendar("no BEGIN:VCALENDAR found (\(kind))")
        }
        diagnostics.sort { ($0.line, $0.severity == .error ? 0 : 1) < ($1.line, $1.severity == .error ? 0 : 1) }
        if diagnostics.count > ParseOptions.maxDiagnostics + 1 {
            diagnostics.removeLast(diagnostics.count - ParseOptions.maxDiagnostics)
            diagnostics.append(Diagnostic(.error, line: diagnostics.last?.line ?? 1,
                                          "more than \(ParseOptions.maxDiagnostics) problems; the rest are not listed"))
        }
        let result = ParseResult(calendars: calendars, diagnostics: diagnostics)
        if options.mode == .strict, !result.errors.isEmpty { throw .invalid(result.errors) }
        return result
    }

    /// Bytes as they come off disk or the network. Invalid UTF-8 is replaced and reported.
    public static func parse(data: some Collection<UInt8>, options: ParseOptions = .lenient) throws(ICalendarError) -> ParseResult {
        try parse(decode(data), options: options)
    }

    /// Text decoded from bytes, and whether invalid UTF-8 had to be replaced.
    public struct Decoded: Sendable {
        public var text: String
        public var repaired: Bool
    }

    /// Decodes bytes for `parse(_:options:)`. Separate so that a caller reading a
    /// large file can let the bytes go before the component tree is built.
    public static func decode(_ data: some Collection<UInt8>) -> Decoded {
        var text = String(decoding: data, as: UTF8.self)
        // Decoding replaces each invalid sequence with U+FFFD (EF BF BD). Only when
        // the text is longer than the input, or holds that sequence at all, can a
        // replacement have happened; a second full copy to check is made only then.
        let holdsReplacement = text.withUTF8(Self.holdsReplacementCharacter)
        let repaired = text.utf8.count != data.count
            || (holdsReplacement && String(validating: data, as: UTF8.self) == nil)
        return Decoded(text: text, repaired: repaired)
    }

    public static func parse(_ decoded: Decoded, options: ParseOptions = .lenient) throws(ICalendarError) -> ParseResult {
        if decoded.text.isEmpty { throw .notICalendar("the input is empty") }
        var result = try parse(decoded.text, options: options)
        if decoded.repaired {
            result.diagnostics.insert(Diagnostic(.warning, line: 1, "the input is not valid UTF-8; invalid bytes were replaced with U+FFFD"), at: 0)
        }
        return result
    }

    /// True when the bytes hold U+FFFD (EF BF BD).
    private static func holdsReplacementCharacter(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0xEF, bytes[index + 1] == 0xBF, bytes[index + 2] == 0xBD { return true }
            index += 1
        }
        return false
    }

    public static func parse(contentsOf url: URL, options: ParseOptions = .lenient) throws -> ParseResult {
        let data = try Data(contentsOf: url)
        return try parse(data: data, options: options)
    }
}
