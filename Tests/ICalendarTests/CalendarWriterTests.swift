import Foundation
import Testing
@testable import ICalendar

struct CalendarWriterTests {
    static func written(_ fixture: String) throws -> String {
        CalendarWriter().write(try ICalendarParser.parse(contentsOf: Fixtures.url(fixture)).calendar)
    }

    @Test func everyLineEndsInCRLFIncludingTheLast() throws {
        let text = try Self.written("interop/overrides.ics")
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() where byte == 10 { #expect(index > 0 && bytes[index - 1] == 13) }
    }

    @Test func oneCompactVTimeZonePerTZIDWithPlainOlsonNames() throws {
        let text = try Self.written("interop/windows.ics")
        #expect(!text.contains("freeassociation"))
        #expect(!text.contains("Standard Time"), "Windows names are rewritten to Olson names")
        let calendar = try ICalendarParser.parse(text).calendar
        #expect(calendar.timeZones.compactMap(\.tzid).sorted() == ["America/New_York", "Europe/Berlin"])
        for zone in calendar.timeZones {
            let size = CalendarWriter.text(of: zone.component).utf8.count
            #expect(size < 1500, "\(zone.tzid!) VTIMEZONE is \(size) bytes; it should be truncated")
        }
        let used = Set(text.split(separator: "\r\n").compactMap { line -> String? in
            guard let range = line.range(of: "TZID=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != ":" && $0 != ";" })
        })
        #expect(used == ["America/New_York", "Europe/Berlin"])
    }

    @Test func unusedTimeZonesAreDroppedAndUTCBecomesZ() throws {
        let text = Fixtures.calendar("DTSTART;TZID=Etc/UTC:20260101T100000\nSUMMARY:x")
        let written = CalendarWriter().write(try ICalendarParser.parse(text).calendar)
        #expect(written.contains("DTSTART:20260101T100000Z\r\n"))
        #expect(!written.contains("VTIMEZONE"))
    }

    @Test func sameValueSameBytes() throws {
        let calendar = try ICalendarParser.parse(contentsOf: Fixtures.url("interop/dst.ics")).calendar
        #expect(CalendarWriter().bytes(calendar) == CalendarWriter().bytes(calendar))
    }

    @Test func typedSettersRoundTrip() throws {
        var event = VEvent()
        event.uid = "built-in-code"
        event.summary = "Christmas, again; \"quoted\"\nsecond line"
        event.dtstart = .date(CivilDate(year: 2026, month: 12, day: 25))
        event.dtend = .date(CivilDate(year: 2026, month: 12, day: 26))
        event.rrules = ["FREQ=YEARLY"]
        event.categories = ["Holiday", "Family, extended"]
        event.color = "crimson"
        event.sequence = 3
        event.alarms = [VAlarm.display(offset: ICalDuration(days: 1, isNegative: true), description: "Tomorrow")]
        var calendar = VCalendar.empty()
        calendar.events = [event]
        let reread = try ICalendarParser.parse(CalendarWriter().write(calendar), options: .strict).calendar.events[0]
        #expect(reread.summary == event.summary)
        #expect(reread.categories == ["Holiday", "Family, extended"])
        #expect(reread.dtstart == event.dtstart && reread.dtend == event.dtend)
        #expect(reread.alarms.first?.triggerOffset == ICalDuration(days: 1, isNegative: true))
        #expect(reread.component == event.component)
    }
}
