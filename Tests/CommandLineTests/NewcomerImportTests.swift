import Foundation
import Testing
import TestSupport

/// Issue #63, 6: a calendar whose only event has `DTSTART:20/01/2027` printed
/// "0 added … 1 skipped" and exited 0, and `DTSTART;VALUE=DATE:2027-01-20`
/// passed `validate` with nothing said.
@Suite(.enabled(if: Corpus.tminusBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "tminus binary not built"), .timeLimit(.minutes(15)))
struct NewcomerImportTests {
    static func calendar(_ events: [(uid: String, start: String)]) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tminus tests//newcomer//EN\r\n"
            + events.map { "BEGIN:VEVENT\r\nUID:\($0.uid)\r\nDTSTAMP:20260101T000000Z\r\n\($0.start)\r\nSUMMARY:Exam\r\nEND:VEVENT\r\n" }.joined()
            + "END:VCALENDAR\r\n"
    }

    @Test func anImportWithNothingUsableExits65NamingTheLineAndChangesNothing() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        try Self.calendar([("a@x", "DTSTART:20/01/2027")]).write(toFile: tminus.path("bad.ics"), atomically: true, encoding: .utf8)
        let refused = try await tminus.run(["import", "bad.ics", "--feed", "exams", "--db", tminus.path("db.sqlite")])
        #expect(refused.status == 65, "\(refused.status) \(refused.out) \(refused.err)")
        #expect(refused.err.contains("nothing was imported") && refused.err.contains("line 7") && refused.err.contains("'20/01/2027' is not a valid DATE"),
                "\(refused.err)")
        let feeds = try await tminus.run(["feeds", "--db", tminus.path("db.sqlite")])
        #expect(!feeds.out.contains("exams"), "the feed was not made: \(feeds.out)")

        // Half usable: imported, and what was skipped is said without --verbose.
        try Self.calendar([("a@x", "DTSTART:20/01/2027"), ("b@x", "DTSTART;VALUE=DATE:20270120")])
            .write(toFile: tminus.path("half.ics"), atomically: true, encoding: .utf8)
        let half = try await tminus.run(["import", "half.ics", "--feed", "exams", "--db", tminus.path("db.sqlite")])
        #expect(half.status == 0 && half.out.contains("1 added") && half.out.contains("1 skipped"), "\(half.out)")
        #expect(half.err.contains("skipped: line 4 (UID a@x)") && half.err.contains("line 7"), "\(half.err)")

        // Many skipped: the first 20, then a count.
        try Self.calendar((0..<30).map { ("bad\($0)@x", "DTSTART:soon") } + [("good@x", "DTSTART;VALUE=DATE:20270120")])
            .write(toFile: tminus.path("many.ics"), atomically: true, encoding: .utf8)
        let many = try await tminus.run(["import", "many.ics", "--feed", "many", "--db", tminus.path("db.sqlite")])
        #expect(many.status == 0 && many.err.contains("… and 40 more (--verbose lists them all)"), "\(many.err.suffix(300))")
    }

    @Test func validateSaysAnISODateIsNotADateValue() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        try Self.calendar([("a@x", "DTSTART;VALUE=DATE:2027-01-20"), ("b@x", "DTSTART:2027-01-20T09:00:00Z")])
            .write(toFile: tminus.path("iso.ics"), atomically: true, encoding: .utf8)
        let run = try await tminus.run(["validate", "iso.ics"])
        #expect(run.out.contains("line 7") && run.out.contains("'2027-01-20' is not a DATE value (RFC 5545 writes 20270120)"), "\(run.out)")
        #expect(run.out.contains("line 13") && run.out.contains("error: '2027-01-20T09:00:00Z' is not a valid DATE or DATE-TIME"), "\(run.out)")
        #expect(run.status == 65, "an error fails the check")
    }
}
