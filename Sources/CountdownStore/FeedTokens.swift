import Crypto
import Foundation
import GRDB

/// A secret that opens one private feed. Only its hash is stored; the token
/// itself is shown once, when created.
public struct FeedToken: Sendable, Hashable, Codable {
    public var id: Int64
    public var feed: String
    public var label: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var revokedAt: Date?
}

public enum Secret {
    /// 128 bits or more from the system CSPRNG, base64url without padding (22 characters for 16 bytes).
    public static func generate(bytes: Int = 16) -> String {
        var generator = SystemRandomNumberGenerator()
        let raw = (0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(raw).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    public static func hash(_ secret: String) -> String {
        SHA256Hex.of(secret)
    }

    /// Compares two equal-length strings without an early exit.
    public static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}

extension CountdownStore {
    /// Creates a token for a feed; returns it once (only the hash is kept).
    public func createFeedToken(feed slug: String, label: String) throws -> (token: String, info: FeedToken) {
        let secret = Secret.generate()
        let now = clock()
        let id = try pool.write { db -> Int64 in
            let feed = try requireFeed(db, slug)
            try db.execute(sql: "INSERT INTO feedToken (feedId, label, tokenHash, createdAt) VALUES (?, ?, ?, ?)",
                           arguments: [feed.id!, label, Secret.hash(secret), now])
            return db.lastInsertedRowID
        }
        return (secret, FeedToken(id: id, feed: slug, label: label, createdAt: now))
    }

    public func feedTokens(feed slug: String) throws -> [FeedToken] {
        try pool.read { db in
            let feed = try requireFeed(db, slug)
            return try Row.fetchAll(db, sql: "SELECT * FROM feedToken WHERE feedId = ? ORDER BY id", arguments: [feed.id!]).map {
                FeedToken(id: $0["id"], feed: slug, label: $0["label"], createdAt: $0["createdAt"], lastUsedAt: $0["lastUsedAt"], revokedAt: $0["revokedAt"])
            }
        }
    }

    public func revokeFeedToken(feed slug: String, id: Int64) throws {
        let now = clock()
        try pool.write { db in
            let feed = try requireFeed(db, slug)
            try db.execute(sql: "UPDATE feedToken SET revokedAt = COALESCE(revokedAt, ?) WHERE id = ? AND feedId = ?", arguments: [now, id, feed.id!])
            guard db.changesCount > 0 else { throw StoreError.invalid("feed '\(slug)' has no token \(id)") }
        }
    }

    // MARK: settings

    public func setting(_ key: String) throws -> String? {
        try pool.read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    public func removeSetting(_ key: String) throws {
        try pool.write { db in try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key]) }
    }

    public func setSetting(_ key: String, _ value: String) throws {
        try pool.write { db in
            try db.execute(sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [key, value])
        }
    }
}
