import Foundation
import Testing

/// `tminus import a.ics b.ics …`: a folder of calendars in one run, each file
/// into the feed its name suggests, each in its own transaction (the bulk
/// path issue #25's million-countdown benchmark builds its database with).
struct MultiFileImportTests {
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//tminus tests//multi//EN\r
        BEGIN:VEVENT\r
        UID:one@tests\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:One\r
        DTSTART;VALUE=DATE:20270301\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func eachFileGoesIntoTheFeedItsNameSuggests() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        for name in ["Family Birthdays.ics", "école-2027.ics", "bills.ics"] {
            try Self.calendar.write(toFile: tminus.path(name), atomically: true, encoding: .utf8)
        }
        let result = try await tminus.run(["import", "Family Birthdays.ics", "école-2027.ics", "bills.ics", "--db", "multi.sqlite"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("3 of 3 files imported"))
        let feeds = try await tminus.run(["feeds", "list", "--db", "multi.sqlite"]).out
        for slug in ["family-birthdays", "ecole-2027", "bills"] { #expect(feeds.contains(slug), "\(feeds)") }
    }

    @Test func aFileThatFailsChangesNothingAndTheOthersStillGoIn() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        try Self.calendar.write(toFile: tminus.path("good.ics"), atomically: true, encoding: .utf8)
        try String(repeating: Self.calendar, count: 1).write(toFile: tminus.path("big.ics"), atomically: true, encoding: .utf8)
        let result = try await tminus.run(["import", "big.ics", "good.ics", "--db", "multi.sqlite", "--max-bytes", "100"])
        #expect(result.status == 65, "a refused file is a data error (ExitStatus)")
        #expect(result.err.contains("big.ics") && result.err.contains("--max-bytes"), "\(result.err)")
        #expect(result.out.contains("failed: big.ics") || result.out.contains("0 of 2"), "\(result.out)")
        let feeds = try await tminus.run(["feeds", "list", "--db", "multi.sqlite"]).out
        #expect(!feeds.contains("big"), "the refused file created no feed")
    }

    @Test func standardInputNeedsAFeedAndStandsAlone() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let alone = try await tminus.run(["import", "-", "--db", "multi.sqlite"])
        #expect(alone.status != 0 && alone.err.contains("--feed"))
        let mixed = try await tminus.run(["import", "-", "other.ics", "--feed", "x", "--db", "multi.sqlite"])
        #expect(mixed.status != 0 && mixed.err.contains("cannot be combined"))
        let nameless = try await tminus.run(["import", "(!).ics", "--db", "multi.sqlite"])
        #expect(nameless.status != 0 && nameless.err.contains("suggests no feed"))
    }
}
