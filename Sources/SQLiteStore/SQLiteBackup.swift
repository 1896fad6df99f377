import CountdownStore
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
    /// The source is opened read-only with `trusted_schema` off: a backup is
    /// a file from elsewhere, and nothing in it runs while it is read.
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
            configuration.readonly = true
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA trusted_schema = OFF") }
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

    /// Makes `scratch`, a private copy of the backup at `backup`, safe to
    /// open as a tminus database: the triggers and views tminus does not make
    /// are dropped before anything is migrated or read (a trigger brought in
    /// by a backup would otherwise fire on every write, a slow one on each).
    /// `known` is `ownObjects()`. Returns what was left out, as "trigger name" and "view name".
    public static func prepareForRestore(_ backup: String, scratch: String, known: Set<String>) throws -> [String] {
        try copy(backup, to: scratch)
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA trusted_schema = OFF") }
        let queue = try DatabaseQueue(path: scratch, configuration: configuration)
        defer { try? queue.close() }
        return try queue.write { db in
            let objects = try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view') ORDER BY type, name")
            var dropped: [String] = []
            for object in objects {
                let type: String = object["type"], name: String = object["name"]
                guard !known.contains("\(type) \(name)") else { continue }
                try db.execute(sql: "DROP \(type == "view" ? "VIEW" : "TRIGGER") \(name.quotedDatabaseIdentifier)")
                dropped.append("\(type) \(name)")
            }
            return dropped
        }
    }

    /// The tables, indexes, triggers and views of a database made by tminus's
    /// own migrations ("table countdown"), read from a new one in a scratch file.
    public static func ownObjects() throws -> Set<String> {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-schema-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteCountdownStore(path: path)
        let names = try store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master").map { row -> String in "\(row["type"] as String) \(row["name"] as String)" }
        }
        try store.pool.close()
        return Set(names)
    }

    /// The objects of `database` that tminus does not make (tables and
    /// indexes a backup brought along): a restore copies rows, not these.
    public static func foreignObjects(in database: String, known: Set<String>) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA trusted_schema = OFF") }
        let queue = try DatabaseQueue(path: database, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
                .map { row -> String in "\(row["type"] as String) \(row["name"] as String)" }
                .filter { !known.contains($0) }
        }
    }

    /// Puts `snapshot` in place of the database at `target`: written into a
    /// new file made by tminus's own migrations, as into an empty database,
    /// then renamed over the target, and the old WAL and shared-memory files
    /// removed. Nothing but tminus's own schema and the snapshot's rows
    /// arrives. A server still running on `target` notices that its file was
    /// replaced (`storageProblem`) and refuses writes until restarted.
    public static func replace(_ target: String, with snapshot: StoreSnapshot) async throws {
        let staged = target + ".restoring-\(ProcessInfo.processInfo.processIdentifier)"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: staged + suffix) }
        do {
            try PrivateFile.create(at: staged, contents: Data())
            let store = try SQLiteCountdownStore(path: staged)
            try await store.restore(snapshot)
            // Everything into the main file before it is renamed: its WAL stays behind.
            try await store.pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            try await store.close()
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: staged + suffix) }
        } catch {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: staged + suffix) }
            throw Failure(description: "cannot write the backup's rows into a new database beside \(target): \(error)")
        }
        guard rename(staged, target) == 0 else {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: staged + suffix) }
            throw Failure(description: "cannot put the backup in place of \(target): \(String(cString: strerror(errno)))")
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: target + suffix) }
    }
}
