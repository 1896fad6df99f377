import Countdowns
import Foundation
import GRDB

extension SQLiteCountdownStore {
    /// Creates a token for a feed; returns it once (only the hash is kept).
    public func createFeedToken(feed slug: String, label: String, visibility: Visibility) async throws -> (token: String, info: FeedToken) {
        let secret = Secret.generate()
        let now = clock()
        let id = try await write { db -> Int64 in
            let feed = try requireFeed(db, slug)
            try db.execute(sql: "INSERT INTO feedToken (feedId, label, tokenHash, createdAt, visibility) VALUES (?, ?, ?, ?, ?)",
                           arguments: [feed.id!, label, Secret.hash(secret), now, visibility])
            return db.lastInsertedRowID
        }
        return (secret, FeedToken(id: id, feed: slug, label: label, visibility: visibility, createdAt: now))
    }

    public func feedTokens(feed slug: String) async throws -> [FeedToken] {
        try await read { db in
            let feed = try requireFeed(db, slug)
            return try Row.fetchAll(db, sql: "SELECT * FROM feedToken WHERE feedId = ? ORDER BY id", arguments: [feed.id!]).map {
                FeedToken(id: $0["id"], feed: slug, label: $0["label"], visibility: $0["visibility"], createdAt: $0["createdAt"], lastUsedAt: $0["lastUsedAt"], revokedAt: $0["revokedAt"])
            }
        }
    }

    public func revokeFeedToken(feed slug: String, id: Int64) async throws {
        let now = clock()
        try await write { db in
            let feed = try requireFeed(db, slug)
            try db.execute(sql: "UPDATE feedToken SET revokedAt = COALESCE(revokedAt, ?) WHERE id = ? AND feedId = ?", arguments: [now, id, feed.id!])
            guard db.changesCount > 0 else { throw StoreError.invalid("feed '\(slug)' has no token \(id)") }
        }
    }

    // MARK: settings

    public func setting(_ key: String) async throws -> String? {
        try await read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    public func removeSetting(_ key: String) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key]) }
    }

    public func setSetting(_ key: String, _ value: String) async throws {
        try await write { db in
            try db.execute(sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [key, value])
        }
    }
}
