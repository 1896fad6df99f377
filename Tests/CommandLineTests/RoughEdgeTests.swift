import Foundation
import Testing
import TestSupport

/// What a new user ran into (issue #23): each answer says what is wrong, or
/// does what the user meant.
@Suite(.enabled(if: Corpus.tminusBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "tminus binary not built"))
struct RoughEdgeTests {
    @Test func anImpossibleDateSaysWhy() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let database = tminus.path("db.sqlite")
        let february = try await tminus.run(["add", "x", "--date", "2026-02-30", "--feed", "f", "--db", database])
        #expect(february.status != 0)
        #expect(february.err.contains("--date: 2026-02-30 is not a date: February 2026 has 28 days"), "\(february.err)")
        let month = try await tminus.run(["add", "x", "--date", "2026-13-01", "--feed", "f", "--db", database])
        #expect(month.err.contains("there is no month 13"), "\(month.err)")
        let shape = try await tminus.run(["add", "x", "--date", "30/02/2026", "--feed", "f", "--db", database])
        #expect(shape.err.contains("'30/02/2026' is not a date: write it as YYYY-MM-DD"), "\(shape.err)")
        #expect(try await tminus.run(["add", "x", "--date", "2028-02-29", "--feed", "f", "--db", database]).status == 0)
        let edit = try await tminus.run(["edit", "1", "--date", "2027-02-29", "--db", database])
        #expect(edit.err.contains("February 2027 has 28 days"), "\(edit.err)")
    }

    /// `--db :memory:` (issue #22): an import that keeps nothing says what it
    /// would add and skip, and writes no file: SQLite alone would have made a
    /// file named ":memory:" or failed on WAL.
    @Test func anImportIntoMemoryIsADryRunThatWritesNothing() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let calendar = try tminus.calendar()
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: tminus.folder.path))
        let dry = try await tminus.run(["import", calendar, "--feed", "school", "--db", ":memory:"])
        #expect(dry.status == 0 && dry.out.contains("school: 2 added, 0 updated, 0 unchanged, 0 skipped"), "\(dry.out) \(dry.err)")
        let again = try await tminus.run(["list", "--feed", "school", "--db", ":memory:"])
        #expect(again.status != 0 && again.err.contains("no feed 'school'"), "nothing was kept: \(again.err)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: tminus.folder.path)) == before, "no database file was written")
        let backup = try await tminus.run(["backup", "--db", ":memory:", "--to", tminus.path("b.sqlite")])
        #expect(backup.status != 0 && backup.err.contains("holds nothing to back up"), "\(backup.err)")
    }

    @Test func listWithoutAFeedListsEveryFeedUnderItsName() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let database = tminus.path("db.sqlite")
        #expect(try await tminus.run(["add", "Exam", "--date", "2031-06-01", "--feed", "school", "--db", database]).status == 0)
        #expect(try await tminus.run(["add", "Holiday", "--date", "2031-08-01", "--feed", "family", "--db", database]).status == 0)
        #expect(try await tminus.run(["feeds", "add", "empty", "--db", database]).status == 0)
        let all = try await tminus.run(["list", "--db", database, "--tz", "UTC"])
        #expect(all.status == 0, "\(all.err)")
        let lines = all.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let headers = lines.filter { $0.hasPrefix("== ") }
        #expect(headers.count == 3, "\(all.out)")
        let exam = try #require(lines.firstIndex { $0.contains("Exam") }), holiday = try #require(lines.firstIndex { $0.contains("Holiday") })
        let school = try #require(lines.firstIndex { $0.hasPrefix("== school") }), family = try #require(lines.firstIndex { $0.hasPrefix("== family") })
        #expect(school < exam && (family > exam || family < holiday) && family < holiday)
        #expect(all.out.contains("empty has no countdowns yet"))
        let json = try await tminus.run(["list", "--db", database, "--json"])
        let feeds = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
        #expect(feeds.count == 3)
        let one = try await tminus.run(["list", "--feed", "school", "--db", database, "--json"])
        #expect((try JSONSerialization.jsonObject(with: Data(one.out.utf8)) as? [String: Any]) != nil, "one feed is one object")
    }

    /// `--to` is not included, for all-day and timed events alike, even when the
    /// calendar's X-WR-TIMEZONE is east of the viewer (the all-day event on the
    /// `--to` date was listed, the timed one at its midnight was not).
    @Test func theEndOfTheWindowIsNotIncludedForDatesAndTimesAlike() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        for header in ["", "X-WR-TIMEZONE:Asia/Tokyo\r\n", "X-WR-TIMEZONE:America/Los_Angeles\r\n"] {
            let input = try tminus.calendar(header: header)
            let before = try await tminus.run(["occurrences", input, "--from", "2026-03-01", "--to", "2026-03-10", "--tz", "UTC"])
            #expect(before.out == "no occurrences between 2026-03-01 and 2026-03-10 (the end not included), in UTC\n", "\(header): \(before.out)")
            let on = try await tminus.run(["occurrences", input, "--from", "2026-03-10", "--to", "2026-03-11", "--tz", "UTC"])
            #expect(on.out.hasPrefix("times in UTC") && on.out.contains("Sports day") && on.out.contains("Concert"), "\(header): \(on.out)")
            let morning = try await tminus.run(["occurrences", input, "--from", "2026-03-01", "--to", "2026-03-10T09:00:00Z", "--tz", "UTC"])
            #expect(morning.out.contains("Sports day") && !morning.out.contains("Concert"), "\(header): \(morning.out)")
        }
        let help = try await tminus.run(["occurrences", "--help"])
        #expect(help.out.contains("not included"))
    }
}
