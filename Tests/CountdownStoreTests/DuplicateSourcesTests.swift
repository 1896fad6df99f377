import Countdowns
import Foundation
import ICalendar
import Testing
@testable import CountdownStore
import Services

/// Issue #26: a feed merged from several sources keeps one copy of an event
/// they share, the preferred source's, and re-importing changes nothing.
struct DuplicateSourcesTests {
    static func calendar(_ events: [(uid: String, title: String, day: String)]) -> Data {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tminus tests//dedupe//EN\r\n"
        for event in events {
            text += "BEGIN:VEVENT\r\nUID:\(event.uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;VALUE=DATE:\(event.day)\r\nSUMMARY:\(event.title)\r\nEND:VEVENT\r\n"
        }
        return Data((text + "END:VCALENDAR\r\n").utf8)
    }

    static func options(_ source: String, _ policy: DuplicatePolicy?) -> ImportOptions {
        var options = ImportOptions(source: source, sync: true)
        options.duplicates = policy
        return options
    }

    /// The bug: two sources with one UID took the row from each other at
    /// every import, so the feed changed (and every client downloaded it
    /// again) at each refresh of either.
    @Test(arguments: StoreBackend.available) func theSameUIDInTwoSourcesNoLongerChangesTheFeedAtEveryImport(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let service = temp.store.service
        let policy = DuplicatePolicy(key: .uid, preference: ["school.ics", "family.ics"])
        let school = Self.calendar([("concert@x", "Winter concert", "20261220"), ("exam@x", "Exam", "20270110")])
        let family = Self.calendar([("concert@x", "Concert (Anna sings)", "20261220"), ("bday@x", "Birthday", "20270301")])
        _ = try await service.importCalendar(school, intoFeed: "merged", options: Self.options("school.ics", policy))
        let second = try await service.importCalendar(family, intoFeed: "merged", options: Self.options("family.ics", policy))
        #expect(second.added == 1 && second.duplicates == 1 && second.updated == 0)
        let settled = try #require(try await temp.store.feed(slug: "merged")).revision
        for _ in 0..<2 {
            let again = try await service.importCalendar(school, intoFeed: "merged", options: Self.options("school.ics", policy))
            let other = try await service.importCalendar(family, intoFeed: "merged", options: Self.options("family.ics", policy))
            #expect(again.unchanged == 2 && other.duplicates == 1 && other.unchanged == 1)
        }
        #expect(try await temp.store.feed(slug: "merged")?.revision == settled, "re-importing both sources changes nothing")
        let titles = Set(try await temp.store.countdowns(inFeed: "merged").map(\.title))
        #expect(titles == ["Winter concert", "Exam", "Birthday"], "the preferred source's copy stays")
    }

    @Test(arguments: StoreBackend.available) func thePreferredSourceTakesOverACopyImportedBeforeIt(_ backend: StoreBackend) async throws {
        let temp = try await TemporaryStore.make(backend)
        let service = temp.store.service
        let policy = DuplicatePolicy(key: .titleAndStart, preference: ["family.ics", "school.ics"],
                                     decorations: ["school.ics": .init(prefix: "School: ", suffix: "")])
        // The school's copy arrives first, with its own UID and its prefix.
        var school = String(decoding: Self.calendar([("concert@school", "Winter concert", "20261220"), ("exam@school", "Exam", "20270110")]),
                            as: UTF8.self)
        school = school.replacingOccurrences(of: "SUMMARY:", with: "SUMMARY:School: ")
        _ = try await service.importCalendar(Data(school.utf8), intoFeed: "merged", options: Self.options("school.ics", policy))
        // The family's copy of the same day and title (other case and spacing) wins and the school's goes.
        let family = Self.calendar([("concert@family", "winter  Concert", "20261220")])
        let report = try await service.importCalendar(family, intoFeed: "merged", options: Self.options("family.ics", policy))
        #expect(report.added == 1 && report.removed == 1)
        var uids = Set(try await temp.store.countdowns(inFeed: "merged").map(\.uid))
        #expect(uids == ["concert@family", "exam@school"])
        // The school's next import leaves it out, and changes nothing after that.
        let next = try await service.importCalendar(Data(school.utf8), intoFeed: "merged", options: Self.options("school.ics", policy))
        #expect(next.duplicates == 1 && next.added == 0 && next.unchanged == 1)
        let settled = try #require(try await temp.store.feed(slug: "merged")).revision
        _ = try await service.importCalendar(family, intoFeed: "merged", options: Self.options("family.ics", policy))
        _ = try await service.importCalendar(Data(school.utf8), intoFeed: "merged", options: Self.options("school.ics", policy))
        #expect(try await temp.store.feed(slug: "merged")?.revision == settled)
        uids = Set(try await temp.store.countdowns(inFeed: "merged").map(\.uid))
        #expect(uids == ["concert@family", "exam@school"])
    }

    @Test func theTitleKeyComparesTheMomentNotItsSpelling() throws {
        let policy = DuplicatePolicy(key: .titleAndStart, preference: ["a", "b"], decorations: ["b": .init(prefix: "[B] ", suffix: " (b)")])
        let utc = Countdown(uid: "1", title: "Launch", target: .utc(LocalDateTime(year: 2027, month: 3, day: 1, hour: 9)))
        let berlin = Countdown(uid: "2", title: "[B] launch (b)", target: .zoned(LocalDateTime(year: 2027, month: 3, day: 1, hour: 10), tzid: "Europe/Berlin"))
        let later = Countdown(uid: "3", title: "Launch", target: .utc(LocalDateTime(year: 2027, month: 3, day: 1, hour: 10)))
        #expect(policy.titleAndStart(of: utc, from: "a") == policy.titleAndStart(of: berlin, from: "b"))
        #expect(policy.titleAndStart(of: utc, from: "a") != policy.titleAndStart(of: later, from: "a"))
    }
}
