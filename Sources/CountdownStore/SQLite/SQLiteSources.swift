import Foundation
import GRDB

extension SQLiteCountdownStore {
    public func sources() async throws -> [SourceStatus] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT source.*, feed.slug FROM source JOIN feed ON feed.id = source.feedId ORDER BY feed.slug, location").map {
                SourceStatus(feed: $0["slug"], location: $0["location"], etag: $0["etag"], lastModifiedHeader: $0["lastModifiedHeader"],
                             lastFetchedAt: $0["lastFetchedAt"], lastSuccessAt: $0["lastSuccessAt"], lastError: $0["lastError"])
            }
        }
    }

    /// Records a fetch: validators on success (200 or 304), the error otherwise.
    /// Creates the feed and source rows if needed, so failures are visible from the first try.
    public func recordFetch(feed slug: String, location: String, etag: String?, lastModified: String?, error: String?) async throws {
        let now = clock()
        try await write { db in
            let feed = try requireFeed(db, slug)
            let source = try SourceRecord.findOrCreate(db, feedId: feed.id!, location: location)
            if let error {
                try db.execute(sql: "UPDATE source SET lastFetchedAt = ?, lastError = ?, leaseUntil = NULL WHERE id = ?",
                               arguments: [now, error, source.id!])
            } else {
                try db.execute(sql: """
                    UPDATE source SET lastFetchedAt = ?, lastSuccessAt = ?, lastError = NULL, leaseUntil = NULL,
                    etag = COALESCE(?, etag), lastModifiedHeader = COALESCE(?, lastModifiedHeader) WHERE id = ?
                    """, arguments: [now, now, etag, lastModified, source.id!])
            }
        }
    }
}

extension SQLiteCountdownStore {
    public func leaseRefresh(feed slug: String, location: String, for duration: TimeInterval) async throws -> Bool {
        let now = clock()
        return try await write { db in
            let feed = try self.requireFeed(db, slug)
            let source = try SourceRecord.findOrCreate(db, feedId: feed.id!, location: location)
            try db.execute(sql: "UPDATE source SET leaseUntil = ? WHERE id = ? AND (leaseUntil IS NULL OR leaseUntil <= ?)",
                           arguments: [now.addingTimeInterval(duration), source.id!, now])
            return db.changesCount > 0
        }
    }

    /// Marks `location` as a source `feed` keeps fetched in the background.
    public func subscribe(feed slug: String, location: String) async throws {
        try await write { db in
            let feed = try requireFeed(db, slug)
            let source = try SourceRecord.findOrCreate(db, feedId: feed.id!, location: location)
            try db.execute(sql: "UPDATE source SET subscribed = 1 WHERE id = ?", arguments: [source.id!])
        }
    }

    /// Stops fetching `location`; what it brought stays until removed by hand.
    public func unsubscribe(feed slug: String, location: String) async throws {
        try await write { db in
            let feed = try requireFeed(db, slug)
            try db.execute(sql: "UPDATE source SET subscribed = 0 WHERE feedId = ? AND location = ?", arguments: [feed.id!, location])
        }
    }

    public func subscriptions() async throws -> [SourceSubscription] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT feed.slug, source.location FROM source JOIN feed ON feed.id = source.feedId WHERE source.subscribed = 1 ORDER BY feed.slug, location")
                .map { SourceSubscription(feed: $0["slug"], location: $0["location"]) }
        }
    }
}
