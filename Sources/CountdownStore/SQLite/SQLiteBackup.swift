import Foundation
import GRDB

/// A consistent copy of a SQLite database in a new file, made while a server
/// reads and writes it: `VACUUM INTO` reads one snapshot and writes a compact
/// copy. It runs on a connection of its own (the pool's readers are
/// query-only, which VACUUM INTO refuses, and the writer would hold up every
/// write for as long as the copy takes). The copy is made owner-only from its
/// first byte, under a temporary name, and renamed into place when whole.
public enum SQLiteBackup {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Copies the database at `source` into `target`, which must not exist.
    public static func copy(_ source: String, to target: String) throws {
        guard !FileManager.default.fileExists(atPath: target) else {
            throw Failure(description: "\(target) already exists; name a new file, or remove it first")
        }
        let partial = target + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.removeItem(atPath: partial)
        do { try PrivateFile.create(at: partial, contents: Data()) } catch { throw Failure(description: "\(error)") }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            let queue = try DatabaseQueue(path: source, configuration: configuration)
            try queue.inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [partial]) }
            try queue.close()
            let check = try DatabaseQueue(path: partial)
            let verdict = try check.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
            try check.close()
            guard verdict == "ok" else { throw Failure(description: "the copy failed its integrity check: \(verdict)") }
            guard rename(partial, target) == 0 else { throw Failure(description: "cannot name the copy \(target): \(String(cString: strerror(errno)))") }
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
            if let failure = error as? Failure { throw failure }
            throw Failure(description: "cannot copy \(source) to \(target): \(error)")
        }
    }

    /// Puts the database `backup` in place of the one at `target`: a copy
    /// beside it, then a rename over it, and the old WAL and shared-memory
    /// files removed. A server still running on `target` notices that its file
    /// was replaced (`storageProblem`) and refuses writes until restarted.
    public static func replace(_ target: String, with backup: String) throws {
        let staged = target + ".restoring-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.removeItem(atPath: staged)
        try copy(backup, to: staged)
        guard rename(staged, target) == 0 else {
            try? FileManager.default.removeItem(atPath: staged)
            throw Failure(description: "cannot put the backup in place of \(target): \(String(cString: strerror(errno)))")
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: target + suffix) }
    }
}
