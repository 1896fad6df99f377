import Foundation
import Testing
import TestSupport

/// `tminus rules test FEED` (issue #26): what a feed's rules do, from the
/// command line, without a database.
@Suite(.enabled(if: Corpus.tminusBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "tminus binary not built"))
struct RulesCommandTests {
    @Test func theDryRunPrintsEachEventsFateAndFailsOnAnUnreadableSource() throws {
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
        let run = try tminus.run(["rules", "test", "school", "--feeds", "feeds", "--on", "2026-11-25"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("feed school: 1 source, 2 events: 0 kept, 1 changed, 1 dropped, 0 duplicate"), "\(run.out)")
        #expect(run.out.contains("Exam → School: Exam  [sources[0].change.prefix]"), "\(run.out)")
        #expect(run.out.contains("Last year  [sources[0].include.from]"), "\(run.out)")
        let json = try tminus.run(["rules", "test", "school", "--feeds", "feeds", "--on", "2026-11-25", "--json"])
        let decoded = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        #expect((decoded?["sources"] as? [[String: Any]])?.first?["lines"].map { ($0 as? [Any])?.count } == 2)

        try FileManager.default.removeItem(atPath: tminus.path("school.ics"))
        let missing = try tminus.run(["rules", "test", "school", "--feeds", "feeds"])
        #expect(missing.status == 1 && missing.out.contains("cannot be read: file not found or unreadable"), "\(missing.out)")
        let unknown = try tminus.run(["rules", "test", "family", "--feeds", "feeds"])
        #expect(unknown.status == 1 && unknown.err.contains("no feed 'family' is defined in") && unknown.err.contains("(it defines school)"),
                "\(unknown.err)")
    }
}
