import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A command line a newcomer can trust (issue #40): a refused command changes
/// nothing, and every failure names what the user typed, in words.
@Suite(.enabled(if: Corpus.tminusBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "tminus binary not built"))
struct TrustworthyCommandTests {
    @Test func aRefusedAddMakesNoFeed() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let database = tminus.path("db.sqlite")
        for (option, value, said) in [("--time", "25:00", "--time: '25:00' is not a time of day (HH:MM, from 00:00 to 23:59)"),
                                      ("--tz", "Mars/Olympus", "--tz: 'Mars/Olympus' is not a known time zone"),
                                      ("--repeat", "fortnightly", "--repeat: 'fortnightly' is not a repeat"),
                                      ("--colors", "red", "--colors:")] {
            let refused = try await tminus.run(["add", "Trip", "--date", "2027-01-01", "--feed", "zz", "--db", database, option, value])
            #expect(refused.status != 0 && refused.err.contains(said), "\(option): \(refused.err)")
        }
        let feeds = try await tminus.run(["feeds", "list", "--db", database])
        #expect(!feeds.out.contains("zz"), "\(feeds.out)")
    }

    @Test func aFolderGivenAsACalendarIsSaidToBeOne() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        try FileManager.default.createDirectory(atPath: tminus.path("calendars"), withIntermediateDirectories: true)
        for command in [["import", "calendars", "--feed", "x", "--db", tminus.path("db.sqlite")], ["validate", "calendars"],
                        ["occurrences", "calendars", "--from", "2026-01-01", "--to", "2026-02-01"]] {
            let result = try await tminus.run(command)
            #expect(result.status != 0 && result.err.contains("calendars is a folder, not a calendar file"), "\(command[0]): \(result.err)")
            #expect(!result.err.contains("NSCocoaErrorDomain") && !result.err.contains("Error Domain"))
        }
    }

    @Test func aCommandThatOnlyReadsMakesNoDatabase() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        for command in [["list"], ["list", "--feed", "x"], ["export", "--feed", "x"], ["feeds", "list"]] {
            let result = try await tminus.run(command + ["--db", tminus.path("typo.sqlite")])
            #expect(result.status != 0 && result.err.contains("no database at"), "\(command): \(result.err)")
            #expect(!FileManager.default.fileExists(atPath: tminus.path("typo.sqlite")), "\(command) made a database")
        }
    }

    @Test func listShowsAtMostItsLimit() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let database = tminus.path("db.sqlite")
        for (title, date) in [("A", "2030-01-01"), ("B", "2030-02-01"), ("C", "2030-03-01"), ("D", "2030-04-01")] {
            #expect(try await tminus.run(["add", title, "--date", date, "--feed", "f", "--db", database]).status == 0)
        }
        let listed = try await tminus.run(["list", "--feed", "f", "--limit", "3", "--db", database])
        #expect(listed.status == 0 && listed.out.split(separator: "\n").count == 3 && !listed.out.contains("  D"), "\(listed.out)")
    }

    /// A busy port is found before the database is opened or any source imported.
    @Test func serveOnABusyPortSaysWhichBeforeItImportsAnything() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let (socket, port) = Loopback.occupiedPort()
        defer { close(socket) }
        let result = try await tminus.run(["serve", "--host", "127.0.0.1", "--port", String(port), "--db", tminus.path("db.sqlite")])
        #expect(result.status != 0 && result.err.contains("port \(port) is in use"), "\(result.err)")
        #expect(!result.err.contains("imported") && !result.out.contains("imported"))
        #expect(!FileManager.default.fileExists(atPath: tminus.path("db.sqlite")), "nothing opened")
    }

    @Test func feedsEditChangesOnlyWhatIsGivenAndRefusesTheRestWhole() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let database = tminus.path("db.sqlite")
        #expect(try await tminus.run(["feeds", "add", "fam", "--name", "Family", "--tz", "UTC", "--db", database]).status == 0)
        let edited = try await tminus.run(["feeds", "edit", "fam", "--tz", "Europe/Berlin", "--private", "--alarms", "--db", database])
        #expect(edited.status == 0 && edited.out.contains("feed 'fam' updated"), "\(edited.err)")
        let refused = try await tminus.run(["feeds", "edit", "fam", "--name", "Kin", "--color", "red", "--db", database])
        #expect(refused.status == 64 && refused.err.contains("--color: 'red' is not #RRGGBB") && refused.err.contains("tminus feeds edit --help"),
                "\(refused.err)")
        let listed = try await tminus.run(["feeds", "list", "--json", "--db", database])
        let feed = try #require((try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]])?.first)
        #expect(feed["name"] as? String == "Family" && feed["timeZone"] as? String == "Europe/Berlin" && feed["public"] as? String == "no",
                "the refused edit changed nothing, the first changed all it named: \(feed)")
        let unchanged = try await tminus.run(["feeds", "edit", "fam", "--tz", "Europe/Berlin", "--db", database])
        #expect(unchanged.out.contains("nothing changed"))
        let back = try await tminus.run(["feeds", "edit", "fam", "--public", "--no-alarms", "--db", database])
        #expect(back.status == 0, "every flag has its way back")
        #expect(try await tminus.run(["feeds", "edit", "fam", "--db", database]).status == 64, "an edit that names nothing is a usage error")
    }

    /// One table of exit statuses (`ExitStatus`), so that scripts can tell the
    /// kinds of failure apart; each row is reached by a real failure here.
    @Test func eachKindOfFailureHasItsExitStatus() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let database = tminus.path("db.sqlite")
        try "BEGIN:VCALENDAR\r\nthis is no calendar\r\n".write(toFile: tminus.path("broken.ics"), atomically: true, encoding: .utf8)
        #expect(try await tminus.run(["add", "Trip", "--date", "2027-01-01", "--feed", "f", "--db", database]).status == 0)
        let cases: [([String], Int32, String)] = [
            (["list", "--limit", "x"], 64, "error: "),
            (["add", "Trip", "--date", "2027-02-30", "--feed", "f", "--db", database], 64, "error: --date"),
            (["import", "broken.ics", "--feed", "x", "--max-bytes", "10", "--db", database], 65, "error: "),
            (["validate", "missing.ics"], 66, "error: missing.ics: no such file"),
            (["list", "--db", tminus.path("typo.sqlite")], 66, "error: no database at"),
            (["export", "--feed", "nope", "--db", database], 66, "error: no feed 'nope'"),
            (["edit", "99", "--title", "x", "--db", database], 66, "error: no countdown with id 99"),
            (["list", "--db", tminus.folder.path], 64, "is a folder, not a database file"),
        ]
        for (arguments, status, said) in cases {
            let result = try await tminus.run(arguments)
            #expect(result.status == status && result.err.contains(said),
                    "\(arguments.joined(separator: " ")): \(result.status) \(result.err)")
            #expect(!result.err.contains("Error:"), "one style, lower-case: \(result.err)")
        }
        let help = try await tminus.run(["--help"])
        #expect(help.out.contains("Exit status") && help.out.contains("66  missing"), "the table is in --help")
    }

    /// A weekly repair café in Berlin, one of its three evenings moved.
    static let repairCafe = """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tminus tests//cli//EN\r\nX-WR-TIMEZONE:Europe/Berlin\r\nBEGIN:VEVENT\r\nUID:cafe@tests\r
        DTSTAMP:20260101T000000Z\r\nDTSTART:20261201T130000Z\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\nSUMMARY:Repair Café\r\nEND:VEVENT\r
        BEGIN:VEVENT\r\nUID:cafe@tests\r\nDTSTAMP:20260101T000000Z\r\nRECURRENCE-ID:20261208T130000Z\r\nDTSTART:20261208T150000Z\r
        SUMMARY:Repair Café (moved)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """

    @Test func validateSaysWhyImportAddsFewerThanItCounts() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        try Self.repairCafe.write(toFile: tminus.path("cafe.ics"), atomically: true, encoding: .utf8)
        let validated = try await tminus.run(["validate", "cafe.ics"])
        #expect(validated.out.contains("2 events (1 of them a moved instance of a repeat, kept with its series on import), 0 tasks; 0 errors, 0 warnings"),
                "\(validated.out)")
        let imported = try await tminus.run(["import", "cafe.ics", "--feed", "cafe", "--db", tminus.path("db.sqlite")])
        #expect(imported.out.contains("1 added"), "\(imported.out)")
    }

    @Test func occurrencesAreShownInTheCalendarsZoneAndSayWhich() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        try Self.repairCafe.write(toFile: tminus.path("cafe.ics"), atomically: true, encoding: .utf8)
        let berlin = try await tminus.run(["occurrences", "cafe.ics", "--from", "2026-12-01", "--to", "2027-01-01"], environment: ["TZ": "UTC"])
        #expect(berlin.out.hasPrefix("times in Europe/Berlin") && berlin.out.contains("2026-12-01 14:00  Repair Café"), "\(berlin.out)")
        let utc = try await tminus.run(["occurrences", "cafe.ics", "--from", "2026-12-01", "--to", "2027-01-01", "--tz", "UTC"])
        #expect(utc.out.hasPrefix("times in UTC") && utc.out.contains("2026-12-01 13:00  Repair Café"), "\(utc.out)")
        let empty = try await tminus.run(["occurrences", "cafe.ics", "--from", "2027-12-01", "--to", "2027-12-31"])
        #expect(empty.status == 0 && empty.out.contains("no occurrences between 2027-12-01 and 2027-12-31 (the end not included), in Europe/Berlin"),
                "\(empty.out)")
    }

    @Test func everyFlagOfEditHasItsWayBack() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let database = tminus.path("db.sqlite")
        #expect(try await tminus.run(["add", "Rent", "--date", "2028-01-31", "--repeat", "monthly", "--clamp", "--up", "--task", "--feed", "f",
                                      "--db", database]).status == 0)
        let before = try await tminus.run(["export", "--feed", "f", "--db", database]).out
        #expect(before.contains("BEGIN:VTODO") && before.contains("BYSETPOS=-1"), "\(before)")
        let edited = try await tminus.run(["edit", "1", "--down", "--event", "--no-clamp", "--db", database])
        #expect(edited.status == 0, "\(edited.err)")
        let after = try await tminus.run(["export", "--feed", "f", "--db", database]).out
        #expect(after.contains("BEGIN:VEVENT") && !after.contains("BYSETPOS") && after.contains("RRULE:FREQ=MONTHLY"), "\(after)")
        let json = try await tminus.run(["list", "--feed", "f", "--json", "--db", database]).out
        #expect(json.contains("\"direction\" : \"down\""), "\(json)")
    }

    @Test func listSinceLeavesOutWhatIsBeforeThatDay() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let database = tminus.path("db.sqlite")
        for (title, date) in [("Early", "2030-01-01"), ("Late", "2030-06-01")] {
            #expect(try await tminus.run(["add", title, "--date", date, "--feed", "f", "--db", database]).status == 0)
        }
        let listed = try await tminus.run(["list", "--feed", "f", "--since", "2030-02-01", "--db", database])
        #expect(listed.out.contains("Late") && !listed.out.contains("Early"), "\(listed.out)")
        let wrong = try await tminus.run(["list", "--since", "2030-02-30", "--db", database])
        #expect(wrong.status == 64 && wrong.err.contains("--since: 2030-02-30 is not a date: February 2030 has 28 days"), "\(wrong.err)")
    }
}
