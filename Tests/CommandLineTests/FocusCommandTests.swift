import Foundation
import Testing
import TestSupport

/// `tminus focus` (issue #42), as a person types it on a new database: the
/// session runs, stops, lands in the focus feed and in the statistics.
@Suite(.enabled(if: Corpus.tminusBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "tminus binary not built"))
struct FocusCommandTests {
    @Test func aSessionStartsRunsStopsAndLandsInTheFocusFeed() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let db = ["--db", tminus.path("db.sqlite")]
        // Long enough that it is still running when stopped, however slow the machine (a 1-minute one had ended by then in a loaded run).
        // Issue #63, 9: a new database's first session made an account 'owner' nobody chose, and `tminus password anna` then failed.
        let whose = try await tminus.run(["focus", "start", "Maths", "--minutes", "30"] + db)
        #expect(whose.status == 66 && whose.err.contains("nobody has an account here yet") && whose.err.contains("--login anna"), "\(whose.err)")
        let started = try await tminus.run(["focus", "start", "Maths", "--minutes", "30", "--as", "anna"] + db, environment: ["TZ": "Europe/Berlin"])
        #expect(started.status == 0 && started.out.hasPrefix("started: Maths, 30:00 left"), "\(started.out) \(started.err)")
        #expect(started.err.contains("made the first account, 'anna'"), "the login given becomes the first account, and it says so")
        let password = try await tminus.run(["password", "anna", "--stdin"] + db, input: "a long enough password\n")
        #expect(password.status == 0, "and `tminus password anna` sets its password: \(password.err)")
        #expect(try await tminus.run(["feeds", "list"] + db).out.contains("Europe/Berlin  private  Focus"), "the focus feed counts days where its person is")
        let running = try await tminus.run(["focus", "status"] + db)
        #expect(running.out.hasPrefix("running: Maths"), "\(running.out)")
        let again = try await tminus.run(["focus", "start", "Physics"] + db)
        #expect(again.status == 65 && again.err.contains("a session is running: Maths"), "\(again.err)")
        let busy = try await tminus.run(["export", "--feed", "focus"] + db)
        #expect(busy.out.contains("SUMMARY:Focus: Maths\r\n") && busy.out.contains("X-TMINUS-FOCUS:study;running"), "a running session is a busy block")
        let stopped = try await tminus.run(["focus", "stop"] + db)
        #expect(stopped.status == 0 && stopped.out.hasPrefix("stopped: Maths"), "\(stopped.out) \(stopped.err)")
        let exported = try await tminus.run(["export", "--feed", "focus"] + db)
        #expect(exported.out.contains("BEGIN:VEVENT") && exported.out.contains("CATEGORIES:Maths") && exported.out.contains("SUMMARY:Focus: Maths — "),
                "\(exported.out)")
        let stats = try await tminus.run(["focus", "stats", "--period", "week"] + db)
        #expect(stats.status == 0 && stats.out.contains("  Maths"), "\(stats.out)")
        #expect(try await tminus.run(["focus", "stop"] + db).err.contains("no focus session is running"))
        #expect(try await tminus.run(["focus", "start", "Maths", "--minutes", "500"] + db).status == 64)
    }

    /// Blocks kept by another timer (timed events of a chosen category) join the history.
    @Test func focusBlocksFromElsewhereJoinTheHistory() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        try """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//elsewhere//EN\r\nBEGIN:VEVENT\r\nUID:a@elsewhere\r\nDTSTAMP:20270301T000000Z\r
            DTSTART:20270301T090000Z\r\nDTEND:20270301T095000Z\r\nSUMMARY:Study\r\nCATEGORIES:Study\r\nEND:VEVENT\r\nBEGIN:VEVENT\r
            UID:b@elsewhere\r\nDTSTAMP:20270301T000000Z\r\nDTSTART:20270302T090000Z\r\nDTEND:20270302T093000Z\r\nSUMMARY:Study\r
            CATEGORIES:Study\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:c@elsewhere\r\nDTSTAMP:20270301T000000Z\r\nDTSTART:20270302T120000Z\r
            DTEND:20270302T130000Z\r\nSUMMARY:Lunch\r\nCATEGORIES:Food\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:d@elsewhere\r
            DTSTAMP:20270301T000000Z\r\nDTSTART;VALUE=DATE:20270303\r\nSUMMARY:Exam week\r\nCATEGORIES:Study\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """.write(toFile: tminus.path("blocks.ics"), atomically: true, encoding: .utf8)
        let db = ["--db", tminus.path("db.sqlite")]
        let imported = try await tminus.run(["focus", "import", "blocks.ics", "--category", "study", "--tag", "Maths", "--login", "anna"] + db)
        #expect(imported.status == 0 && imported.out.contains("2 added"), "\(imported.out) \(imported.err)")
        let stats = try await tminus.run(["focus", "stats", "--period", "month", "--on", "2027-03-01", "--json"] + db)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.out.utf8)) as? [String: Any])
        let tags = try #require(json["tags"] as? [[String: Any]])
        #expect(tags.count == 1 && tags[0]["name"] as? String == "Maths" && tags[0]["minutes"] as? Int == 80, "\(tags)")
    }
}
