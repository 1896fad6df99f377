import Countdowns
import Foundation
import GRDB
import ICalendar

/// Countdowns in SQLite: a WAL `DatabasePool` migrated on open. All writes are
/// transactions, and every value from outside is a bound parameter. The clock
/// is injected so that tests and imports agree on "now".
public final class CountdownStore: Sendable {
    let pool: DatabasePool
    let clock: @Sendable () -> Date
    public let limits: StoreLimits
    public let path: String
    let statements = StatementCounter()

    public init(path: String, limits: StoreLimits = StoreLimits(), clock: @escaping @Sendable () -> Date = { Date() }) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        let statements = self.statements
        configuration.prepareDatabase { db in db.trace(options: .statement) { _ in statements.increment() } }
        try PrivateFile.prepareDatabase(at: path)
        pool = try DatabasePool(path: path, configuration: configuration)
        try StoreMigrations.migrator.migrate(pool)
        self.clock = clock
        self.limits = limits
        self.path = path
    }

    /// `PRAGMA integrity_check`: "ok" for a healthy file.
    public func integrityCheck() throws -> String {
        try pool.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
    }

    /// A second point of ownership must not outlive the process in tests.
    public func close() throws { try pool.close() }
}

/// A feed as stored: its definition plus what clients need for caching.
public struct StoredFeed: Sendable, Hashable {
    public var id: Int64
    public var feed: Feed
    public var countdownCount: Int
    /// The last change to the feed or any of its countdowns (never moves back).
    public var updatedAt: Date
    /// Rises with every change: a cache key that a stalled clock cannot fool.
    public var revision: Int64
}

extension CountdownStore {
    // MARK: feeds

    public func feeds() throws -> [StoredFeed] {
        try pool.read { db in
            try FeedRecord.order(Column("slug")).fetchAll(db).map { try stored($0, db) }
        }
    }

    public func feed(slug: String) throws -> StoredFeed? {
        try pool.read { db in try FeedRecord.filter(Column("slug") == slug).fetchOne(db).map { try stored($0, db) } }
    }

    @discardableResult
    public func createFeed(_ feed: Feed) throws -> StoredFeed {
        guard Feed.isValidSlug(feed.slug) else { throw StoreError.invalidSlug(feed.slug) }
        let now = clock()
        return try pool.write { db in
            guard try FeedRecord.filter(Column("slug") == feed.slug).fetchCount(db) == 0 else { throw StoreError.feedExists(feed.slug) }
            var record = FeedRecord(feed, now: now)
            try record.insert(db)
            try saveCategoryColors(db, feedId: record.id!, colors: feed.categoryColors)
            return try stored(record, db)
        }
    }

    /// Creates the feed or updates its definition (what `feeds/` files do on load).
    @discardableResult
    public func saveFeed(_ feed: Feed) throws -> StoredFeed {
        guard Feed.isValidSlug(feed.slug) else { throw StoreError.invalidSlug(feed.slug) }
        let now = clock()
        return try pool.write { db in
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
    public func deleteFeed(slug: String) throws {
        try pool.write { db in
            guard try FeedRecord.filter(Column("slug") == slug).deleteAll(db) > 0 else { throw StoreError.feedNotFound(slug) }
        }
    }

    // MARK: countdowns

    /// The feed's countdowns, ordered by first date then title. Never loads image bytes.
    public func countdowns(inFeed slug: String) throws -> [Countdown] {
        guard let contents = try feedContents(slug: slug) else { throw StoreError.feedNotFound(slug) }
        return contents.countdowns
    }

    /// One countdown and the slug of its feed.
    public func countdown(id: Int64) throws -> (countdown: Countdown, feed: String) {
        try pool.read { db in
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
    public func add(_ countdown: Countdown, toFeed slug: String) throws -> Countdown {
        let now = clock()
        return try pool.write { db in
            let feed = try requireFeed(db, slug)
            guard try CountdownRecord.filter(Column("feedId") == feed.id! && Column("uid") == countdown.uid).fetchCount(db) == 0 else {
                throw StoreError.duplicateUID(countdown.uid, feed: slug)
            }
            var fresh = countdown
            fresh.sequence = 0
            fresh.created = now
            fresh.lastModified = now
            var record = CountdownRecord(fresh, feedId: feed.id!, sourceId: nil, now: now)
            try record.insert(db)
            try CategoryRecord.link(db, countdownId: record.id!, feedId: feed.id!, names: fresh.categories)
            try FeedRecord.touch(db, feedId: feed.id!, now: now)
            fresh.id = record.id
            return fresh
        }
    }

    /// Saves an edited countdown; SEQUENCE and LAST-MODIFIED rise only when something changed.
    @discardableResult
    public func update(_ countdown: Countdown) throws -> Countdown {
        guard let id = countdown.id else { throw StoreError.invalid("the countdown has no id; add it first") }
        let now = clock()
        return try pool.write { db in
            guard var record = try CountdownRecord.fetchOne(db, key: id) else { throw StoreError.countdownNotFound(id) }
            let content = CountdownRecord.content(of: countdown)
            guard content != record.content else { return try record.countdown(source: countdown.source) }
            var edited = countdown
            edited.sequence = record.sequence + 1
            edited.created = record.createdAt
            edited.lastModified = max(now, record.lastModified)
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

    public func delete(id: Int64) throws {
        let now = clock()
        try pool.write { db in
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

extension CountdownStore {
    /// A cheap liveness check for /healthz (the full integrity check reads every page).
    public func integrityCheckQuick() throws -> String {
        try pool.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "no answer" }
    }
}

extension CountdownStore {
    /// True for SQLite's "database or disk is full" (SQLITE_FULL), however it is wrapped.
    public static func isStorageFull(_ error: any Error) -> Bool {
        if let error = error as? DatabaseError { return error.resultCode == .SQLITE_FULL }
        return false
    }

    /// Lets the file grow by at most `pages` more pages on the writer's
    /// connection: how the tests make a disk full.
    func limitGrowth(toPages pages: Int) throws {
        try pool.writeWithoutTransaction { db in
            let current = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(current + pages)")
        }
    }
}
