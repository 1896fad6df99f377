import Countdowns
import CountdownStore
import Foundation
import GRDB

extension SQLiteCountdownStore {
    public func feedTokens(feed slug: String) async throws -> [FeedToken] {
        try await read { db in
            let feed = try requireFeed(db, slug)
            return try Row.fetchAll(db, sql: "SELECT * FROM feedToken WHERE feedId = ? ORDER BY id", arguments: [try feed.savedID()]).map {
                FeedToken(id: $0["id"], feed: slug, label: $0["label"], visibility: $0["visibility"], createdAt: $0["createdAt"], lastUsedAt: $0["lastUsedAt"], revokedAt: $0["revokedAt"])
            }
        }
    }

    // MARK: settings

    public func setting(_ key: SettingKey) async throws -> String? {
        try await read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key.rawValue]) }
    }
}
