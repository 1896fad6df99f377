import Countdowns
import CountdownStore
import Foundation
import PostgresNIO

extension PostgresCountdownStore {
    // MARK: feed tokens

    public func feedTokens(feed slug: String) async throws -> [FeedToken] {
        try await read { connection in
            let feed = try await self.requireFeed(connection, slug)
            var tokens: [FeedToken] = []
            for try await (id, label, created, used, revoked, visibility) in try await connection.query("""
                SELECT id, label, createdAt, lastUsedAt, revokedAt, visibility FROM feedToken WHERE feedId = \(try feed.savedID()) ORDER BY id
                """, logger: self.logger).decode((Int64, String, Date, Date?, Date?, Visibility).self) {
                tokens.append(FeedToken(id: id, feed: slug, label: label, visibility: visibility, createdAt: created,
                                        lastUsedAt: used, revokedAt: revoked))
            }
            return tokens
        }
    }


    // MARK: settings

    public func setting(_ key: SettingKey) async throws -> String? {
        try await read { connection in
            try await connection.query("SELECT value FROM setting WHERE key = \(key.rawValue)", logger: self.logger).collect(String.self).first
        }
    }

    // MARK: images

    public func image(_ reference: String) async throws -> (bytes: Data, mimeType: String)? {
        guard let digest = StoredImage.digest(in: reference) else { return nil }
        return try await read { connection in
            for try await (bytes, type) in try await connection.query("SELECT bytes, mimeType FROM image WHERE sha256 = \(digest)",
                                                                     logger: self.logger).decode((Data, String).self) {
                return (bytes, type)
            }
            return nil
        }
    }

    // MARK: expiring entries

    public func persistedValue(for key: String) async throws -> PersistedValue? {
        let now = clock()
        return try await read { connection in
            for try await (bytes, expiry) in try await connection.query("""
                SELECT value, expiresAt FROM persistEntry WHERE keyHash = \(Secret.hash(key))
                """, logger: self.logger).decode((Data, Date?).self) {
                let value = PersistedValue(bytes: bytes, expiresAt: expiry)
                return value.isLive(at: now) ? value : nil
            }
            return nil
        }
    }

    public func persistedKeyHashes() async throws -> [String] {
        try await read { connection in
            try await connection.query("SELECT keyHash FROM persistEntry ORDER BY keyHash COLLATE \"C\"", logger: self.logger).collect(String.self)
        }
    }

    // MARK: health

    /// The server keeps the data; nothing local can be lost under it.
    public var storageProblem: String? { nil }

    public func quickCheck() async throws -> String {
        try await read { connection in
            try await connection.query("SELECT 'ok'", logger: self.logger).collect(String.self).first ?? "no answer"
        }
    }
}
