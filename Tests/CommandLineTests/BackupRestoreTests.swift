import Foundation
import Testing
import TestSupport

/// Issue #24, 6: `tminus backup` makes a consistent, owner-only copy while the
/// database is being written, and `tminus restore` puts it back, refusing a
/// target that holds feeds unless told.
@Suite(.enabled(if: Corpus.tminusBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "tminus binary not built"))
struct BackupRestoreTests {
    static func calendar(events: Int, prefix: String) -> String {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tminus tests//backup//EN\r\n"
        for index in 0..<events {
            text += "BEGIN:VEVENT\r\nUID:\(prefix)-\(index)@tests\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:\(prefix) \(index)\r\n"
                + "DTSTART;VALUE=DATE:20\(30 + index % 60)0\(1 + index % 9)1\(index % 9)\r\nRRULE:FREQ=YEARLY\r\nEND:VEVENT\r\n"
        }
        return text + "END:VCALENDAR\r\n"
    }

    @Test func aBackupRestoresToTheSameCalendars() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let live = tminus.path("live.sqlite")
        try Self.calendar(events: 40, prefix: "Family").write(toFile: tminus.path("family.ics"), atomically: true, encoding: .utf8)
        #expect(try await tminus.run(["import", "family.ics", "--feed", "family", "--db", live]).status == 0)
        #expect(try await tminus.run(["add", "Exam", "--date", "2031-06-01", "--feed", "school", "--db", live]).status == 0)

        let backup = try await tminus.run(["backup", "--db", live, "--to", "nightly.sqlite"])
        #expect(backup.status == 0 && backup.out.contains("backed up 2 feeds (41 countdowns)"), "\(backup)")
        let mode = (try FileManager.default.attributesOfItem(atPath: tminus.path("nightly.sqlite"))[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o600, "the backup holds the password hash and sessions: owner-only")
        let again = try await tminus.run(["backup", "--db", live, "--to", "nightly.sqlite"])
        #expect(again.status != 0 && again.err.contains("already exists"), "\(again.err)")
        #expect(try await tminus.run(["backup", "--db", live, "--to", "nightly.sqlite", "--force"]).status == 0)

        let restored = try await tminus.run(["restore", "--from", "nightly.sqlite", "--db", "new.sqlite"])
        #expect(restored.status == 0 && restored.out.contains("restored 2 feeds (41 countdowns)"), "\(restored)")
        for feed in ["family", "school"] {
            let before = try await tminus.run(["export", "--feed", feed, "--db", live]).out
            let after = try await tminus.run(["export", "--feed", feed, "--db", "new.sqlite"]).out
            #expect(!before.isEmpty && before == after, "\(feed) is served the same from the restored database")
        }

        let refused = try await tminus.run(["restore", "--from", "nightly.sqlite", "--db", live])
        #expect(refused.status != 0 && refused.err.contains("already holds 2 feeds; nothing was changed"), "\(refused.err)")
        #expect(try await tminus.run(["rm", "1", "--db", live]).status == 0)
        let replaced = try await tminus.run(["restore", "--from", "nightly.sqlite", "--db", live, "--replace"])
        #expect(replaced.status == 0 && replaced.out.contains("41 countdowns"), "\(replaced)")
        let missing = try await tminus.run(["restore", "--from", "nowhere.sqlite", "--db", "other.sqlite"])
        #expect(missing.status != 0 && missing.err.contains("no such backup file"))
    }

    /// The second audit: a backup given a trigger and a view restored them as
    /// they were (a trigger renamed every feed; a slow one made each write
    /// take seconds). Only rows come back now, into tminus's own schema, and
    /// what was left out is named.
    @Test func restoringABackupLeavesOutTriggersAndViewsItBrought() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let live = tminus.path("live.sqlite")
        #expect(try await tminus.run(["add", "Exam", "--date", "2031-06-01", "--feed", "school", "--db", live]).status == 0)
        #expect(try await tminus.run(["backup", "--db", live, "--to", "nightly.sqlite"]).status == 0)
        let sql = """
            CREATE TRIGGER hijack AFTER UPDATE ON feed BEGIN UPDATE feed SET name = 'pwned'; END;
            CREATE TRIGGER hijack_insert AFTER INSERT ON countdown BEGIN UPDATE feed SET name = 'pwned'; END;
            CREATE VIEW peek AS SELECT * FROM setting;
            CREATE TABLE extra (secret TEXT);
            """
        let python = URL(fileURLWithPath: "/usr/bin/env")
        let added = try await ChildRun.run(python, ["python3", "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()",
                                                    tminus.path("nightly.sqlite"), sql])
        #expect(added.status == 0, "\(added)")
        let before = try Data(contentsOf: URL(fileURLWithPath: tminus.path("nightly.sqlite")))

        for (target, extra) in [("new.sqlite", [String]()), (live, ["--replace"])] {
            let restored = try await tminus.run(["restore", "--from", "nightly.sqlite", "--db", target] + extra)
            #expect(restored.status == 0, "\(restored)")
            #expect(restored.err.contains("trigger hijack") && restored.err.contains("view peek") && restored.err.contains("table extra"),
                    "what was left out is named: \(restored.err)")
            #expect(try await tminus.run(["add", "Oral", "--date", "2031-06-02", "--feed", "school", "--db", target]).status == 0)
            let feeds = try await tminus.run(["feeds", "--db", target]).out
            #expect(!feeds.contains("pwned"), "no trigger came along: \(feeds)")
            let names = try await ChildRun.run(python, ["python3", "-c", "import sqlite3, sys; print([r[0] for r in sqlite3.connect(sys.argv[1]).execute('SELECT name FROM sqlite_master')])",
                                                        target.hasPrefix("/") ? target : tminus.path(target)]).out
            #expect(!names.contains("hijack") && !names.contains("peek") && !names.contains("extra"), "\(names)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: tminus.path("nightly.sqlite"))) == before, "the backup itself is not changed")
    }

    /// A backup taken while a large import is being written holds all of it or none of it.
    @Test func aBackupDuringAnImportIsWholeOrWithoutIt() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let live = tminus.path("live.sqlite")
        #expect(try await tminus.run(["add", "First", "--date", "2031-06-01", "--feed", "first", "--db", live]).status == 0)
        try Self.calendar(events: 3_000, prefix: "Bulk").write(toFile: tminus.path("bulk.ics"), atomically: true, encoding: .utf8)
        let importer = Process()
        importer.executableURL = try #require(Corpus.tminusBinary)
        importer.arguments = ["import", tminus.path("bulk.ics"), "--feed", "bulk", "--db", live]
        importer.standardOutput = FileHandle.nullDevice
        importer.standardError = FileHandle.nullDevice
        try ChildProcesses.start(importer)
        defer { if importer.isRunning { importer.terminate() }; importer.waitUntilExit() }
        var counts: [String] = []
        for index in 0..<4 {
            let result = try await tminus.run(["backup", "--db", live, "--to", "during-\(index).sqlite"])
            #expect(result.status == 0, "\(result.err)")
            counts.append(result.out)
        }
        importer.waitUntilExit()
        for out in counts {
            #expect(out.contains("(1 countdown)") || out.contains("(3001 countdowns)"), "a backup caught part of the import: \(out)")
        }
    }
}
