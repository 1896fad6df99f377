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
}
