import SQLiteStore
import Foundation
import GRDB
import Testing
import TestSupport
@testable import CountdownStore
import Services

/// SIGKILL in the middle of a large import: the database must open cleanly with
/// either the old or the new state, never something in between.
@Suite(.enabled(if: Corpus.tminusBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "tminus binary not built"))
struct DurabilityTests {
    static let bigCount = 30_000

    static func bigCalendar(at url: URL) throws {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tminus tests//durability//EN\r\n"
        for index in 0..<bigCount {
            let day = 1 + index % 28, month = 1 + index / 28 % 12
            text += "BEGIN:VEVENT\r\nUID:bulk-\(index)@test\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Bulk event \(index)\r\n"
            text += "DTSTART;VALUE=DATE:2027\(month < 10 ? "0" : "")\(month)\(day < 10 ? "0" : "")\(day)\r\nRRULE:FREQ=YEARLY\r\nEND:VEVENT\r\n"
        }
        try Data((text + "END:VCALENDAR\r\n").utf8).write(to: url)
    }

    enum KillPoint: CaseIterable { case whileParsing, atFirstProgress, atLastQuarter }

    @Test(.timeLimit(.minutes(20)), arguments: KillPoint.allCases)
    func sigkillMidImportLeavesOldOrNewState(_ point: KillPoint) async throws {
        let binary = try #require(Corpus.tminusBinary, "build the tminus executable first")
        let temp = try await TemporaryStore.make()
        _ = try await temp.store.service.importCalendar(try TemporaryStore.fixture("family.ics"), intoFeed: "family")
        let oldCount = try await temp.store.countdowns(inFeed: "family").count
        try await temp.store.close()
        let big = temp.directory.appendingPathComponent("big.ics")
        try Self.bigCalendar(at: big)

        let process = Process()
        process.executableURL = binary
        process.arguments = ["import", big.path, "--feed", "family", "--db", temp.path]
        // Heard through a watch, not a blocking read: a read would hold a thread of the
        // cooperative pool (of two) for as long as the import takes to get there.
        let output = try OutputWatch(file: temp.directory.appendingPathComponent("import.log").path)
        try output.start(process)
        // Each kill point is a line the import writes on its way: "reading …" just
        // before it parses, its first progress line, and the one at three quarters.
        let marker = switch point {
        case .whileParsing: "reading "
        case .atFirstProgress: "importing:"
        case .atLastQuarter: "\(Self.bigCount * 3 / 4 / 500 * 500) of"
        }
        let heard = await output.wait(for: marker)
        #expect(heard, "the import said \((try? String(contentsOf: temp.directory.appendingPathComponent("import.log"), encoding: .utf8)) ?? "")")
        let killedWhileRunning = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        let reopened = try SQLiteCountdownStore(path: temp.path)
        #expect(try await reopened.integrityCheck() == "ok")
        let count = try await reopened.countdowns(inFeed: "family").count
        #expect(count == oldCount || count == oldCount + Self.bigCount, "half an import survived: \(count) countdowns")
        if killedWhileRunning, point != .atLastQuarter { #expect(count == oldCount, "killed before commit, yet the new state is there") }
        print("durability (\(point)): killed \(killedWhileRunning ? "mid-import" : "after exit"), \(count) countdowns afterwards (old \(oldCount))")
        try await reopened.close()
    }
}

/// Issue #27 (minor): a read-only database exited with SQLite's "attempt to
/// write a readonly database while executing SELECT". (Root ignores file
/// modes, so the mapping is checked on SQLite's own error.)
struct ReadOnlyDatabaseMessageTests {
    @Test func aReadOnlyFileIsNamedWithTheFix() {
        let error = DatabaseError(resultCode: .SQLITE_READONLY, message: "attempt to write a readonly database", sql: "SELECT 1")
        let explained = "\(SQLiteCountdownStore.explained(error, path: "/var/lib/tminus/tminus.sqlite"))"
        #expect(explained.contains("/var/lib/tminus/tminus.sqlite is read-only for this user"), "\(explained)")
        #expect(!explained.contains("SELECT"))
    }
}
