import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// `tminus rules test FEED` (issue #26): what a feed's rules do, from the
/// command line, without a database.
@Suite(.enabled(if: Corpus.tminusBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "tminus binary not built"), .timeLimit(.minutes(15)))
struct RulesCommandTests {
    @Test func theDryRunPrintsEachEventsFateAndFailsOnAnUnreadableSource() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        try FileManager.default.createDirectory(atPath: tminus.path("feeds"), withIntermediateDirectories: true)
        try Data("""
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//tminus tests//cli rules//EN\r
            BEGIN:VEVENT\r
            UID:exam@cli.test\r
            DTSTAMP:20260101T000000Z\r
            DTSTART;VALUE=DATE:20270110\r
            SUMMARY:Exam\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:gone@cli.test\r
            DTSTAMP:20260101T000000Z\r
            DTSTART;VALUE=DATE:20260101\r
            SUMMARY:Last year\r
            END:VEVENT\r
            END:VCALENDAR\r

            """.utf8).write(to: URL(fileURLWithPath: tminus.path("school.ics")))
        try Data("""
            name: School
            sources:
              - file: ../school.ics
                change: {prefix: "School: "}
                include: {from: -7d}

            """.utf8).write(to: URL(fileURLWithPath: tminus.path("feeds/school.yaml")))
        let run = try await tminus.run(["rules", "test", "school", "--feeds", "feeds", "--on", "2026-11-25"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("feed school: 1 source, 2 events: 0 kept, 1 changed, 1 dropped, 0 duplicate"), "\(run.out)")
        #expect(run.out.contains("Exam → School: Exam  [sources[0].change.prefix]"), "\(run.out)")
        #expect(run.out.contains("Last year  [sources[0].include.from]"), "\(run.out)")
        let json = try await tminus.run(["rules", "test", "school", "--feeds", "feeds", "--on", "2026-11-25", "--json"])
        let decoded = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        #expect((decoded?["sources"] as? [[String: Any]])?.first?["lines"].map { ($0 as? [Any])?.count } == 2)

        try FileManager.default.removeItem(atPath: tminus.path("school.ics"))
        let missing = try await tminus.run(["rules", "test", "school", "--feeds", "feeds"])
        #expect(missing.status == 65 && missing.out.contains("cannot be read: no file at"), "\(missing.out)")
        let unknown = try await tminus.run(["rules", "test", "family", "--feeds", "feeds"])
        #expect(unknown.status == 66 && unknown.err.contains("no feed 'family' is defined in") && unknown.err.contains("(it defines school)"),
                "\(unknown.err)")
    }

    /// With `--db`, the sources added in the web app or the API run too, with
    /// the rules kept in the database, and a feed made there needs no file.
    @Test func withADatabaseTheSubscriptionsAndTheirRulesRunToo() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        try Data("""
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//tminus tests//cli rules db//EN\r
            BEGIN:VEVENT\r
            UID:staff@cli.test\r
            DTSTAMP:20260101T000000Z\r
            DTSTART;VALUE=DATE:20270110\r
            SUMMARY:Staff training\r
            STATUS:TENTATIVE\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:concert@cli.test\r
            DTSTAMP:20260101T000000Z\r
            DTSTART;VALUE=DATE:20270320\r
            SUMMARY:Spring concert\r
            END:VEVENT\r
            END:VCALENDAR\r

            """.utf8).write(to: URL(fileURLWithPath: tminus.path("school.ics")))
        #expect(try await tminus.run(["import", "school.ics", "--feed", "school", "--db", "t.sqlite"]).status == 0)
        // A school portal on loopback, and the subscription the web app would have kept (written as the store keeps it).
        let port = Loopback.freePort()
        let portal = Process()
        portal.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        portal.arguments = ["-u", "-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", tminus.folder.path]
        let output = try OutputWatch(file: tminus.path("portal.log"))
        try output.start(portal)
        defer { kill(portal.processIdentifier, SIGKILL); portal.waitUntilExit() }
        #expect(await output.wait(for: "Serving HTTP"), "the portal listens")
        let url = "http://127.0.0.1:\(port)/school.ics"
        let sql = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("INSERT INTO source (feedId, location, subscribed, rules) SELECT id, ?, 1, ? FROM feed WHERE slug = 'school'",
                       (sys.argv[2], "exclude:\\n  status: [tentative]\\n"))
            db.commit()
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", sql, tminus.path("t.sqlite"), url]
        try ChildProcesses.start(python)
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)

        let run = try await tminus.run(["rules", "test", "school", "--db", "t.sqlite", "--allow-private-sources"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("feed school: 1 source, 2 events: 1 kept, 0 changed, 1 dropped"), "\(run.out)")
        #expect(run.out.contains("Staff training  [source.exclude.status]"), "\(run.out)")
        let refused = try await tminus.run(["rules", "test", "school", "--db", "t.sqlite"])
        #expect(refused.status == 65 && refused.out.contains("cannot be read"), "without --allow-private-sources the loopback portal is refused: \(refused.out)")
        let unknown = try await tminus.run(["rules", "test", "family", "--db", "t.sqlite"])
        #expect(unknown.status == 66 && unknown.err.contains("no feed 'family' in the database"), "\(unknown.err)")
    }
}
