import Countdowns
import Foundation
import ICalendar
import Testing
import TestSupport
@testable import CountdownStore
import Services

struct RoundTripTests {
    static func export(_ store: any CountdownStore, _ slug: String) async throws -> String {
        let feed = try #require(try await store.feed(slug: slug)).feed
        var withAlarms = feed
        withAlarms.includeAlarms = true
        return CalendarWriter().write(CalendarExport.calendar(feed: withAlarms, countdowns: try await store.countdowns(inFeed: slug)))
    }

    static func occurrences(_ text: String, year: Int = 2027) throws -> [String] {
        let calendar = try ICalendarParser.parse(text).calendar
        let zone = Zone.named(calendar.defaultTimeZone ?? "UTC")!
        let window = DateInterval(start: zone.instant(of: LocalDateTime(year: year, month: 1, day: 1)),
                                  end: zone.instant(of: LocalDateTime(year: year + 1, month: 1, day: 1)))
        return OccurrenceExpander(calendar: calendar, floatingZone: zone).occurrences(of: calendar.events, in: window, limit: 10_000)
            .occurrences.map { "\($0.uid) \($0.isAllDay ? $0.start.civilDate.iso : Zone.utc.local(of: $0.startInstant).iso + "Z")" }
    }

    @Test(arguments: StoreBackend.available) func importExportImportKeepsUIDsContentAndOccurrences(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let original = try TemporaryStore.fixture("family.ics")
        _ = try await temp.store.service.importCalendar(original, intoFeed: "family")
        let exported = try await Self.export(temp.store, "family")
        let report = try await temp.store.service.importCalendar(Data(exported.utf8), intoFeed: "copy", options: ImportOptions(strict: true))
        #expect(report.added == 5 && report.skipped.isEmpty)
        let first = try await temp.store.countdowns(inFeed: "family"), second = try await temp.store.countdowns(inFeed: "copy")
        #expect(first.map(\.uid).sorted() == second.map(\.uid).sorted())
        for countdown in first {
            let twin = try #require(second.first { $0.uid == countdown.uid })
            #expect(CountdownRecord.content(of: twin) == CountdownRecord.content(of: countdown), "\(countdown.uid) changed")
        }
        let originalOccurrences = try Self.occurrences(String(decoding: original, as: UTF8.self))
        #expect(try Self.occurrences(exported) == originalOccurrences)
        #expect(try Self.occurrences(try await Self.export(temp.store, "copy")) == originalOccurrences)
        // Re-importing the export into the feed it came from changes nothing.
        let again = try await temp.store.service.importCalendar(Data(exported.utf8), intoFeed: "family")
        #expect(again.unchanged == 5 && again.updated == 0 && again.added == 0)
    }

    @Test(.enabled(if: PythonChecker.available, "python checkers not installed (run make test)"), arguments: StoreBackend.available)
    func exportParsesInPythonAndItsOccurrencesMatch(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        _ = try await temp.store.service.importCalendar(try TemporaryStore.fixture("family.ics"), intoFeed: "family")
        let exported = try await Self.export(temp.store, "family")
        let file = temp.directory.appendingPathComponent("family-export.ics")
        try Data(exported.utf8).write(to: file)
        let verdict = try #require(try await PythonChecker.run(["parse": [file.path]])[file.path] as? [String: Any])
        #expect(verdict["ok"] as? Bool == true, "\(verdict)")
        let answer = try await PythonChecker.run(["expand": [file.path], "from": "2027-01-01T00:00:00", "to": "2028-01-01T00:00:00", "tz": "Europe/Budapest"])
        let python = try #require(answer[file.path] as? [[String: Any]]).map { "\($0["uid"]!) \($0["start"]!)" }
        let ours = try Self.occurrences(exported).sorted()
        #expect(python.sorted() == ours)
        #expect(python.count > 60, "a year of monthly rent, weekly swimming and a birthday")
    }
}
