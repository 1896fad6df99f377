import Foundation
import Testing
@testable import Countdowns
import ICalendar

/// The hand-written `tminus occurrences --format json` writer gives exactly the
/// bytes of its specification, `Row` through `JSONEncoder.tminusPretty`.
struct OccurrenceListJSONTests {
    static let calendar = """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:a"quote\\\\back/slash\r\nDTSTAMP:20260101T000000Z\r
        SUMMARY:Tab\\there\\, \\"quoted\\" 🎉 and a\\nnewline\r\nDTSTART;TZID=Europe/Vienna:20260901T170000\r
        DTEND;TZID=Europe/Vienna:20260901T183000\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:a"quote\\\\back/slash\r
        DTSTAMP:20260101T000000Z\r\nRECURRENCE-ID;TZID=Europe/Vienna:20260908T170000\r\nSTATUS:CANCELLED\r
        DTSTART;TZID=Europe/Vienna:20260908T170000\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:day\r\nDTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20260910\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """

    @Test(arguments: [0, 1, 4])
    func handWrittenBytesEqualTheEncoder(_ count: Int) throws {
        let calendar = try ICalendarParser.parse(Self.calendar).calendar
        let window = DateInterval(start: Date(timeIntervalSince1970: 1_780_000_000), duration: 400 * 86_400)
        let occurrences = Array(OccurrenceExpander(calendar: calendar, cancelled: .include)
            .occurrences(in: calendar, in: window, limit: 100).occurrences.prefix(count))
        #expect(occurrences.count == count)
        let expected = try JSONEncoder.tminusPretty.encode(occurrences.map(OccurrenceListJSON.Row.init))
        #expect(String(decoding: OccurrenceListJSON.bytes(occurrences), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }
}
