import Foundation
import Testing
import ICalendar
@testable import Countdowns

struct MappingTests {
    static let source = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:anna@example.com\r
        DTSTAMP:20260101T000000Z\r
        SEQUENCE:4\r
        SUMMARY:Anna turns {n}\r
        DTSTART;VALUE=DATE:19960229\r
        RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1\r
        CATEGORIES:Birthday,Family\r
        COLOR:orchid\r
        X-TMINUS-GRADIENT:#FF3B30,#FF9500\r
        X-TMINUS-TEXT-COLOR:#FFFFFF\r
        X-TMINUS-UNIT:detailed\r
        X-SOMETHING-ELSE;X-PARAM=1:kept as it is\r
        STATUS:CONFIRMED\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-P1D\r
        DESCRIPTION:Anna turns {n}\r
        END:VALARM\r
        BEGIN:VALARM\r
        ACTION:AUDIO\r
        TRIGGER;RELATED=END:PT0S\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VTODO\r
        UID:taxes@example.com\r
        SUMMARY:Tax return\r
        DUE;VALUE=DATE:20270531\r
        PRIORITY:1\r
        STATUS:COMPLETED\r
        COMPLETED:20270401T100000Z\r
        END:VTODO\r
        END:VCALENDAR\r

        """

    @Test func readsPresentationTasksAndUnknownProperties() throws {
        let calendar = try ICalendarParser.parse(Self.source, options: .strict).calendar
        let (countdowns, skipped) = CountdownReader.countdowns(in: calendar, source: "test.ics")
        #expect(skipped.isEmpty)
        let anna = try #require(countdowns.first { $0.uid == "anna@example.com" })
        #expect(anna.repeatRule == .every(interval: 1, unit: .year, clamp: true))
        #expect(anna.presentation == Presentation(gradient: ["#FF3B30", "#FF9500"], textColor: "#FFFFFF"))
        #expect(anna.displayUnit == .detailed && anna.categories == ["Birthday", "Family"] && anna.sequence == 4)
        #expect(anna.alarms == [ICalDuration(days: 1, isNegative: true)])
        #expect(anna.extraComponents.count == 1, "the AUDIO alarm is kept raw")
        #expect(anna.extraProperties.map(\.name) == ["X-SOMETHING-ELSE", "STATUS"])
        let taxes = try #require(countdowns.first { $0.uid == "taxes@example.com" })
        #expect(taxes.kind == .task && taxes.status == .completed && taxes.priority == 1)
        #expect(taxes.target == .date(CivilDate(year: 2027, month: 5, day: 31)))
    }

    /// Export → import gives the same countdowns: X-TMINUS-* carries what iCalendar cannot.
    @Test func exportReimportsLosslessly() throws {
        let calendar = try ICalendarParser.parse(Self.source, options: .strict).calendar
        let first = CountdownReader.countdowns(in: calendar, source: nil).countdowns
        let feed = Feed(slug: "family", name: "Family", timeZone: "Europe/Budapest", color: "#FF3B30", includeAlarms: true,
                        categoryColors: ["Birthday": "#FF9500"])
        let exported = CalendarWriter().write(CalendarExport.calendar(feed: feed, countdowns: first))
        let reparsed = try ICalendarParser.parse(exported, options: .strict).calendar
        let second = CountdownReader.countdowns(in: reparsed, source: nil).countdowns
        #expect(second.sorted { $0.uid < $1.uid } == first.sorted { $0.uid < $1.uid })
        #expect(CalendarExport.categoryColors(in: reparsed) == ["Birthday": "#FF9500"])
        #expect(CalendarWriter().write(CalendarExport.calendar(feed: feed, countdowns: second)) == exported, "byte-stable")
        for name in ["NAME:Family", "X-WR-CALNAME:Family", "REFRESH-INTERVAL;VALUE=DURATION:PT6H", "X-PUBLISHED-TTL:PT6H",
                     "X-APPLE-CALENDAR-COLOR:#FF3B30", "COLOR:"] {
            #expect(exported.contains("\r\n" + name), "header lacks \(name)")
        }
    }

    @Test func alarmsAreOptInPerFeed() throws {
        let calendar = try ICalendarParser.parse(Self.source).calendar
        let countdowns = CountdownReader.countdowns(in: calendar, source: nil).countdowns
        let quiet = CalendarWriter().write(CalendarExport.calendar(feed: Feed(slug: "f", includeAlarms: false), countdowns: countdowns))
        #expect(!quiet.contains("BEGIN:VALARM"))
    }

    @Test func itemsWithoutUIDGetAStableOne() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nSUMMARY:No UID\r\nDTSTART;VALUE=DATE:20270101\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let once = CountdownReader.countdowns(in: try ICalendarParser.parse(text).calendar, source: nil).countdowns
        let twice = CountdownReader.countdowns(in: try ICalendarParser.parse(text).calendar, source: nil).countdowns
        #expect(once.first?.uid == twice.first?.uid)
        #expect(once.first?.uid.hasPrefix("tminus-") == true)
    }

    @Test func unusableItemsAreReportedNotThrown() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\nSUMMARY:When?\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let (countdowns, skipped) = CountdownReader.countdowns(in: try ICalendarParser.parse(text).calendar, source: nil)
        #expect(countdowns.isEmpty)
        #expect(skipped.first?.description == "line 3 (UID x): no DTSTART or DUE, so there is nothing to count down to")
    }
}

/// Issue #25: the export is written one countdown at a time; it must be the
/// very bytes the whole-calendar writer gives, zones and tasks included.
struct StreamedExportTests {
    @Test func theStreamedExportIsTheWholeCalendarsBytes() {
        let berlin = Make.zoned("20270310T090000", "Europe/Berlin", title: "Berlin meeting")
        let windows = Make.zoned("20260105T170000", "W. Europe Standard Time", title: "A Windows zone")
        let utc = Make.zoned("20270101T000000", "Etc/UTC", title: "UTC new year")
        var task = Make.allDay("20270201", title: "A task")
        task.kind = .task
        var yearly = Make.allDay("19900510", repeat: .yearly, title: "Anna turns {n}")
        yearly.alarms = [ICalDuration(parsing: "-P1D")!]
        let countdowns = [berlin, windows, utc, task, yearly, Make.zoned("20280229T120000", "Asia/Tokyo", title: "Leap day in Tokyo")]
        for feed in [Feed(slug: "mixed", timeZone: "Europe/Berlin", color: "#FF9500", includeAlarms: true), Feed(slug: "quiet", includeAlarms: false)] {
            let whole = CalendarWriter().bytes(CalendarExport.calendar(feed: feed, countdowns: countdowns))
            let streamed = CalendarExport.bytes(feed: feed, countdowns: countdowns)
            #expect(streamed == whole, "\(String(decoding: streamed, as: UTF8.self))")
        }
    }

    /// Written a batch at a time in export order (`CalendarExport.Batches`,
    /// issue #41), past a megabyte of events (the writer's chunks): the parts
    /// joined are the whole calendar's bytes, tasks after every event.
    @Test func anExportWrittenInBatchesIsTheWholeCalendarsBytes() {
        let feed = Feed(slug: "many", timeZone: "Europe/Berlin", includeAlarms: true)
        var countdowns: [Countdown] = []
        for index in 0..<4_000 {
            var one = index % 3 == 0 ? Make.zoned("20270310T090000", index % 2 == 0 ? "Europe/Berlin" : "Asia/Tokyo", title: "Meeting \(index) " + String(repeating: "x", count: 900))
                : Make.allDay("20270201", repeat: .yearly, title: "Day \(index)")
            one.uid = "uid-\(index)@tests"
            if index % 7 == 0 { one.kind = .task }
            countdowns.append(one)
        }
        let whole = CalendarWriter().bytes(CalendarExport.calendar(feed: feed, countdowns: countdowns))
        var batches = CalendarExport.Batches(feed: feed)
        let ordered = CalendarExport.order(of: countdowns).map { countdowns[$0] }
        for start in stride(from: 0, to: ordered.count, by: 333) { batches.add(Array(ordered[start..<min(start + 333, ordered.count)])) }
        let parts = batches.takeParts()
        #expect(parts.count > 3, "the events came in more than one chunk")
        #expect(Array(parts.joined()) == whole)
        #expect(CalendarExport.bytes(feed: feed, countdowns: countdowns) == whole)
    }

    /// A task given by DTSTART and DURATION (as calendar apps write them, issue #38) is due when it is up, and keeps
    /// its start; a duration beyond a century, from whoever sent the calendar, is not worked out (no arithmetic on it).
    @Test func aTaskWithADurationIsDueWhenItIsUp() throws {
        func task(_ duration: String) throws -> Countdown {
            let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VTODO\r\nUID:d@t\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART:20270104T100000Z\r\nDURATION:\(duration)\r\nSUMMARY:Essay\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            return try #require(CountdownReader.countdowns(in: try ICalendarParser.parse(text).calendar, source: nil).countdowns.first)
        }
        let essay = try task("PT2H")
        #expect(essay.target == .utc(LocalDateTime(year: 2027, month: 1, day: 4, hour: 12)))
        #expect(essay.extraProperties.contains { $0.name == "DTSTART" && $0.value == "20270104T100000Z" }, "its start is kept")
        let endless = try task("P99999999W")
        #expect(endless.target == .utc(LocalDateTime(year: 2027, month: 1, day: 4, hour: 10)), "due at its start, as before")
    }
}
