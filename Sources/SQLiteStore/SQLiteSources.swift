import CountdownStore
import Foundation
import GRDB

extension SQLiteCountdownStore {
    public func sources() async throws -> [SourceStatus] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT source.*, feed.slug FROM source JOIN feed ON feed.id = source.feedId ORDER BY feed.slug, location").map {
                SourceStatus(feed: $0["slug"], location: $0["location"], etag: $0["etag"], lastModifiedHeader: $0["lastModifiedHeader"],
                             lastFetchedAt: $0["lastFetchedAt"], lastSuccessAt: $0["lastSuccessAt"], lastError: $0["lastError"],
                             importedWith: $0["importedWith"])
            }
        }
    }

    public func subscriptions() async throws -> [SourceSubscription] {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT feed.slug, source.location, source.login, source.rules FROM source JOIN feed ON feed.id = source.feedId WHERE source.subscribed = 1
                ORDER BY feed.slug, location
                """)
                .map { SourceSubscription(feed: $0["slug"], location: $0["location"], login: $0["login"], rules: $0["rules"]) }
        }
    }
}
