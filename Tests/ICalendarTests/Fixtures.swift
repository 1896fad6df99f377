import Foundation
import TestSupport
@testable import ICalendar

/// Test fixtures written for tminus (Tests/ICalendarTests/Fixtures).
enum Fixtures {
    static let directory = Corpus.packageRoot.appendingPathComponent("Tests/ICalendarTests/Fixtures")

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    static func text(_ name: String) throws -> String { try String(contentsOf: url(name), encoding: .utf8) }

    static var interop: [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: directory.appendingPathComponent("interop"), includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "ics" }.sorted { $0.path < $1.path }
    }

    /// A minimal calendar around some VEVENT lines.
    static func calendar(_ eventLines: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:fixture\r\n"
            + eventLines.split(separator: "\n").map { $0 + "\r\n" }.joined() + "END:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    static func instant(_ text: String) -> Date {
        Zone.utc.instant(of: DateTimeValue(text: text.replacingOccurrences(of: "Z", with: ""), tzid: nil, valueType: nil)!.local)
    }
}

/// Expands one event's lines and prints starts as UTC ISO strings.
enum RecurringSeriesFixture {
    static func expand(_ eventLines: String, from: String, to: String, floating: Zone = .utc) throws -> [String] {
        let calendar = try ICalendarParser.parse(Fixtures.calendar(eventLines)).calendar
        let expander = OccurrenceExpander(calendar: calendar, floatingZone: floating)
        let window = DateInterval(start: Fixtures.instant(from), end: Fixtures.instant(to))
        return expander.occurrences(in: calendar, in: window, limit: 10_000).occurrences.map {
            $0.isAllDay ? $0.start.civilDate.iso : Zone.utc.local(of: $0.startInstant).iso + "Z"
        }
    }
}
