import Countdowns
import CountdownStore
import Foundation
import GRDB
import ICalendar

/// Which file a path names: device and inode, so that a file deleted or
/// replaced under an open database is noticed.
package struct FileIdentity: Equatable, Sendable {
    package var device: UInt64
    package var inode: UInt64

    package init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

/// Countdowns in SQLite: a WAL `DatabasePool` migrated on open. All writes are
/// transactions, and every value from outside is a bound parameter. The clock
/// is injected so that tests and imports agree on "now". GRDB runs each read
/// and write on its own queues, so awaiting one never blocks a cooperative thread.
public final class SQLiteCountdownStore: CountdownStore {
    package let pool: DatabasePool
    package let clock: @Sendable () -> Date
    public let path: String
    package let statements = StatementCounter()
    /// Every write waits here for its turn on the writer connection.
    package let turns = WriteTurns()
    /// The file opened, to tell when it is deleted or replaced (`storageProblem`).
    package let identity: FileIdentity?
    /// Connections for the short reads that answer a request, used on the
    /// request's own thread (`QuickReaders`).
    package let quickReaders: QuickReaders

    /// `readOnly` (commands that only read: `list`, `export`, `feeds list`)
    /// opens the file without writing it, so a read-only backup can be listed;
    /// a file whose schema is behind this version is upgraded first when it can
    /// be written, and refused with the fix when it cannot.
    public init(path: String, clock: @escaping @Sendable () -> Date = { Date() }, readOnly: Bool = false) throws {
        let statements = self.statements
        do {
            pool = try Self.open(path, readOnly: readOnly, statements: statements)
        } catch let error as DatabaseError {
            throw Self.explained(error, path: path)
        }
        identity = FileIdentity(path: path)
        quickReaders = QuickReaders(count: 2) {
            // A lock held elsewhere (another process's migration, a checkpoint) is waited for briefly here, where a pool thread waits:
            // the caller then takes the pool's read, which waits the full busy timeout on a thread of its own.
            var configuration = Self.configuration(readOnly: true, statements: statements)
            configuration.busyMode = .timeout(0.05)
            return try DatabaseQueue(path: path, configuration: configuration)
        }
        self.clock = clock
        self.path = path
    }

    /// A reader connection's page cache, in SQLite's negative-means-KiB form.
    static let readerCacheKiB = -512

    static func configuration(readOnly: Bool, statements: StatementCounter) -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.readonly = readOnly
        // A `StoreTransaction` spans several accesses to the writer (BEGIN, the
        // primitives, COMMIT), in its turn (`WriteTurns`).
        configuration.allowsUnsafeTransactions = true
        configuration.prepareDatabase { db in
            db.trace(options: .statement) { _ in statements.increment() }
            // A reader keeps 512 KB of pages, not SQLite's 2 MB: one compile's
            // scan of a large feed filled a reader's cache, which then stayed
            // allocated for good in each of the pool's readers (4-6 MB of a 10k
            // feed's server, `bench/size.py`), for short indexed reads whose
            // pages the system's file cache holds anyway. The writer keeps 2 MB for imports.
            if db.configuration.readonly { try db.execute(sql: "PRAGMA cache_size = \(readerCacheKiB)") }
        }
        return configuration
    }

    /// SQLite's own words for a file it cannot write ("attempt to write a
    /// readonly database while executing SELECT") name neither the file nor
    /// the fix.
    package static func explained(_ error: DatabaseError, path: String) -> Error {
        switch error.resultCode {
        case .SQLITE_READONLY:
            StoreError.unusable("the database file \(path) is read-only for this user: tminus writes it, and the -wal and -shm files beside it, "
                                   + "so give this user write access to the file and its folder")
        case .SQLITE_CANTOPEN:
            StoreError.unusable("the database file \(path) cannot be opened (\(error.message ?? "no reason given")): check that its folder exists and is writable")
        default:
            error
        }
    }

    public var storageProblem: String? {
        guard let identity else { return nil }
        switch FileIdentity(path: path) {
        case nil: return "the database file \(path) was deleted while the server ran: what is written now would be lost, so writes are refused; restore the file or restart the server"
        case let current? where current != identity:
            return "the database file \(path) was replaced while the server ran: writes would go to the old file, so they are refused; restart the server"
        default: return nil
        }
    }

    public var location: String { path }

    public var keptExports: any KeptExports { SQLiteKeptExports(store: self) }

    /// Another process writing the file is noticed by polling its revisions.
    public var changeNotices: (any FeedChangeNotices)? { nil }

    /// A read on one of the pool's reader connections (a snapshot).
    package func readDatabase<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await pool.read(body)
    }

    /// A write transaction of its own (for the writes that are not yet
    /// primitives). A full disk comes back as `StoreError.storageFull` (507 to
    /// HTTP clients), not as a raw SQLite error.
    package func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        if let storageProblem { throw StoreError.unusable(storageProblem) }
        do { return try await turns.run { try await pool.write(body) } } catch let error as DatabaseError {
            throw explained(error)
        }
    }

    /// Runs a use case in one transaction on the writer connection: BEGIN
    /// IMMEDIATE (another process writing the file makes us wait, up to the
    /// busy timeout), the primitives, then COMMIT; ROLLBACK when anything throws,
    /// the task is cancelled, or the commit fails.
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        if let storageProblem { throw StoreError.unusable(storageProblem) }
        let pool = self.pool
        return try await turns.run {
            do {
                try await pool.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
                let result = try await body(SQLiteTransaction(pool: pool, now: clock(), writes: true))
                try await pool.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
                return result
            } catch {
                // Not cancellable: a cancelled task must still leave the connection out of its transaction.
                await Task.detached {
                    try? await pool.writeWithoutTransaction { db in if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") } }
                }.value
                if let error = error as? DatabaseError { throw explained(error) }
                throw error
            }
        }
    }

    /// What a caller is told of SQLite's own errors that it can act on.
    private func explained(_ error: DatabaseError) -> Error {
        switch error.resultCode {
        case .SQLITE_FULL: StoreError.storageFull
        case .SQLITE_READONLY: Self.explained(error, path: path)
        default: error
        }
    }

    /// `PRAGMA integrity_check`: "ok" for a healthy file.
    public func integrityCheck() async throws -> String {
        try await readDatabase { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
    }

    /// A second point of ownership must not outlive the process in tests.
    public func close() async throws { try pool.close() }
}

extension SQLiteCountdownStore {
    /// Reads, each primitive on one of the pool's reader connections.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T {
        try await body(SQLiteTransaction(pool: pool, now: clock(), writes: false))
    }

    /// The file as it stands (not deleted or replaced under the server), a
    /// cheap `PRAGMA quick_check` (the full integrity check reads every page),
    /// and the migrations applied.
    public func check(_ depth: StoreCheck.Depth) async throws -> StoreCheck {
        if let storageProblem { return StoreCheck(problem: storageProblem, migrations: nil) }
        guard depth == .full else { return StoreCheck(problem: nil, migrations: nil) }
        let (verdict, migrations) = try await readDatabase { db in
            (try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "no answer", try StoreMigrations.migrator.appliedMigrations(db))
        }
        return StoreCheck(problem: (verdict == "ok" ? nil : "the database file \(path) fails its check: \(verdict)"), migrations: migrations)
    }

    /// SQL statements run since the store was opened (all connections).
    public var statementCount: Int { statements.value }
}

extension SQLiteCountdownStore {
    /// Lets the file grow by at most `pages` more pages on the writer's
    /// connection: how the tests make a disk full.
    package func limitGrowth(toPages pages: Int) throws {
        try pool.writeWithoutTransaction { db in
            let current = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(current + pages)")
        }
    }
}
