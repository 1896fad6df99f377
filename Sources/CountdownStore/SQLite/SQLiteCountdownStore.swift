import Countdowns
import Foundation
import GRDB
import ICalendar

/// Which file a path names: device and inode, so that a file deleted or
/// replaced under an open database is noticed.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64

    init?(path: String) {
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
    let pool: DatabasePool
    let clock: @Sendable () -> Date
    public let limits: StoreLimits
    public let path: String
    let statements = StatementCounter()
    /// The file opened, to tell when it is deleted or replaced (`storageProblem`).
    let identity: FileIdentity?

    public init(path: String, limits: StoreLimits = StoreLimits(), clock: @escaping @Sendable () -> Date = { Date() }) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        let statements = self.statements
        configuration.prepareDatabase { db in db.trace(options: .statement) { _ in statements.increment() } }
        try PrivateFile.prepareDatabase(at: path)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            let migrator = StoreMigrations.migrator
            let unknown = try pool.read { db in try migrator.appliedIdentifiers(db) }.subtracting(migrator.migrations)
            if let newest = unknown.sorted().last { throw StoreError.newerSchema(database: path, migration: newest) }
            try migrator.migrate(pool)
        } catch let error as DatabaseError {
            throw Self.explained(error, path: path)
        }
        identity = FileIdentity(path: path)
        self.clock = clock
        self.limits = limits
        self.path = path
    }

    /// SQLite's own words for a file it cannot write ("attempt to write a
    /// readonly database while executing SELECT") name neither the file nor
    /// the fix.
    static func explained(_ error: DatabaseError, path: String) -> Error {
        switch error.resultCode {
        case .SQLITE_READONLY:
            StoreError.unavailable("the database file \(path) is read-only for this user: tminus writes it, and the -wal and -shm files beside it, "
                                   + "so give this user write access to the file and its folder")
        case .SQLITE_CANTOPEN:
            StoreError.unavailable("the database file \(path) cannot be opened (\(error.message ?? "no reason given")): check that its folder exists and is writable")
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

    /// A read on one of the pool's reader connections (a snapshot).
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await pool.read(body)
    }

    /// A write transaction. A full disk comes back as `StoreError.storageFull`
    /// (507 to HTTP clients), not as a raw SQLite error.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        if let storageProblem { throw StoreError.unavailable(storageProblem) }
        do { return try await pool.write(body) } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            throw StoreError.storageFull
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
            throw Self.explained(error, path: path)
        }
    }

    /// `PRAGMA integrity_check`: "ok" for a healthy file.
    public func integrityCheck() async throws -> String {
        try await read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
    }

    /// A second point of ownership must not outlive the process in tests.
    public func close() async throws { try pool.close() }
}

extension SQLiteCountdownStore {
    // MARK: feeds

    public func feeds() async throws -> [StoredFeed] {
        try await read { db in
            try FeedRecord.order(Column("slug")).fetchAll(db).map { try stored($0, db) }
        }
    }

    public func feed(slug: String) async throws -> StoredFeed? {
        try await read { db in try FeedRecord.filter(Column("slug") == slug).fetchOne(db).map { try stored($0, db) } }
    }

    @discardableResult
    public func createFeed(_ feed: Feed) async throws -> StoredFeed {
        guard Feed.isValidSlug(feed.slug) else { throw StoreError.invalidSlug(feed.slug) }
        let now = clock()
        return try await write { db in
            guard try FeedRecord.filter(Column("slug") == feed.slug).fetchCount(db) == 0 else { throw StoreError.feedExists(feed.slug) }
            var record = FeedRecord(feed, now: now)
            try record.insert(db)
            try saveCategoryColors(db, feedId: record.id!, colors: feed.categoryColors)
            return try stored(record, db)
        }
    }

    /// Creates the feed or updates its definition (what `feeds/` files do on load).
    @discardableResult
    public func saveFeed(_ feed: Feed) async throws -> StoredFeed {
        guard Feed.isValidSlug(feed.slug) else { throw StoreError.invalidSlug(feed.slug) }
        let now = clock()
        return try await write { db in
            var record = try FeedRecord.filter(Column("slug") == feed.slug).fetchOne(db) ?? FeedRecord(feed, now: now)
            let before = record.id.map { _ in record }
            record.apply(feed)
            if record.id == nil { try record.insert(db) } else {
                try record.update(db)
                if let before, before.feed(categoryColors: [:]) != record.feed(categoryColors: [:]) {
                    try FeedRecord.touch(db, feedId: record.id!, now: now)
                }
            }
            try saveCategoryColors(db, feedId: record.id!, colors: feed.categoryColors)
            return try stored(try FeedRecord.fetchOne(db, key: record.id!)!, db)
        }
    }

    /// Deletes a feed and everything in it.
    public func deleteFeed(slug: String) async throws {
        try await write { db in
            guard try FeedRecord.filter(Column("slug") == slug).deleteAll(db) > 0 else { throw StoreError.feedNotFound(slug) }
        }
    }

    // MARK: countdowns

    /// One countdown and the slug of its feed.
    public func countdown(id: Int64) async throws -> (countdown: Countdown, feed: String) {
        try await read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT countdown.*, source.location AS sourceLocation, feed.slug AS feedSlug FROM countdown
                JOIN feed ON feed.id = countdown.feedId LEFT JOIN source ON source.id = countdown.sourceId
                WHERE countdown.id = ?
                """, arguments: [id]) else { throw StoreError.countdownNotFound(id) }
            return (try CountdownRecord(row: row).countdown(source: row["sourceLocation"]), row["feedSlug"])
        }
    }

    /// Adds a countdown by hand: sequence 0, created and modified now.
    @discardableResult
    public func add(_ countdown: Countdown, toFeed slug: String) async throws -> Countdown {
        let now = clock()
        return try await insertNew(CountdownStamps.added(countdown, now: now), toFeed: slug, now: now)
    }

    /// Inserts an already stamped countdown as a new row of the feed (add and
    /// restore); refused when the feed already has its UID.
    func insertNew(_ stamped: Countdown, toFeed slug: String, now: Date) async throws -> Countdown {
        try await write { db in
            let feed = try self.requireFeed(db, slug)
            guard try CountdownRecord.filter(Column("feedId") == feed.id! && Column("uid") == stamped.uid).fetchCount(db) == 0 else {
                throw StoreError.duplicateUID(stamped.uid, feed: slug)
            }
            var saved = stamped
            var record = CountdownRecord(saved, feedId: feed.id!, sourceId: nil, now: now)
            try record.insert(db)
            try CategoryRecord.link(db, countdownId: record.id!, feedId: feed.id!, names: saved.categories)
            try FeedRecord.touch(db, feedId: feed.id!, now: now)
            saved.id = record.id
            return saved
        }
    }

    /// Saves an edited countdown; SEQUENCE and LAST-MODIFIED rise only when something changed.
    @discardableResult
    public func update(_ countdown: Countdown) async throws -> Countdown {
        guard let id = countdown.id else { throw StoreError.invalid("the countdown has no id; add it first") }
        let now = clock()
        return try await write { db in
            guard var record = try CountdownRecord.fetchOne(db, key: id) else { throw StoreError.countdownNotFound(id) }
            let content = CountdownRecord.content(of: countdown)
            guard content != record.content else { return try record.countdown(source: countdown.source) }
            let edited = CountdownStamps.edited(countdown, row: record, now: now)
            let replacement = CountdownRecord(edited, feedId: record.feedId, sourceId: record.sourceId, now: now)
            record.uid = replacement.uid
            record.title = replacement.title
            record.kind = replacement.kind
            record.status = replacement.status
            record.startsOn = replacement.startsOn
            record.sequence = edited.sequence
            record.lastModified = edited.lastModified!
            record.content = content
            try record.update(db)
            try CategoryRecord.link(db, countdownId: id, feedId: record.feedId, names: edited.categories)
            try FeedRecord.touch(db, feedId: record.feedId, now: now)
            return edited
        }
    }

    public func delete(id: Int64) async throws {
        let now = clock()
        try await write { db in
            guard let record = try CountdownRecord.fetchOne(db, key: id) else { throw StoreError.countdownNotFound(id) }
            _ = try record.delete(db)
            try FeedRecord.touch(db, feedId: record.feedId, now: now)
        }
    }

    // MARK: helpers

    func requireFeed(_ db: Database, _ slug: String) throws -> FeedRecord {
        guard let feed = try FeedRecord.filter(Column("slug") == slug).fetchOne(db) else { throw StoreError.feedNotFound(slug) }
        return feed
    }

    func stored(_ record: FeedRecord, _ db: Database) throws -> StoredFeed {
        let count = try CountdownRecord.filter(Column("feedId") == record.id!).fetchCount(db)
        return StoredFeed(id: record.id!, feed: record.feed(categoryColors: try CategoryRecord.colors(db, feedId: record.id!)),
                          countdownCount: count, updatedAt: record.updatedAt, revision: record.revision)
    }

    func saveCategoryColors(_ db: Database, feedId: Int64, colors: [String: String]) throws {
        for (name, color) in colors {
            try db.execute(sql: """
                INSERT INTO category (feedId, name, color) VALUES (?, ?, ?)
                ON CONFLICT(feedId, name) DO UPDATE SET color = excluded.color
                """, arguments: [feedId, name, color])
        }
    }
}

extension SQLiteCountdownStore {
    /// A cheap liveness check for /healthz (the full integrity check reads every page).
    public func quickCheck() async throws -> String {
        try await read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "no answer" }
    }
}

extension SQLiteCountdownStore {
    /// Lets the file grow by at most `pages` more pages on the writer's
    /// connection: how the tests make a disk full.
    func limitGrowth(toPages pages: Int) throws {
        try pool.writeWithoutTransaction { db in
            let current = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(current + pages)")
        }
    }
}
