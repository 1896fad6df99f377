import CountdownStore
import Foundation
import PostgresNIO

extension PostgresCountdownStore {
    /// The source row's id, created when the feed has none for `location`.
    func sourceId(_ connection: PostgresConnection, feedId: Int64, location: String) async throws -> Int64 {
        let ids = try await connection.query("""
            INSERT INTO source (feedId, location) VALUES (\(feedId), \(location))
            ON CONFLICT (feedId, location) DO UPDATE SET location = excluded.location RETURNING id
            """, logger: logger).collect(Int64.self)
        guard let id = ids.first else { throw StoreError.invalid("the source \(location) could not be saved") }
        return id
    }

    public func sources() async throws -> [SourceStatus] {
        try await read { connection in
            var sources: [SourceStatus] = []
            for try await (slug, location, etag, modified, fetched, success, error, importedWith) in try await connection.query("""
                SELECT feed.slug, source.location, source.etag, source.lastModifiedHeader, source.lastFetchedAt, source.lastSuccessAt,
                       source.lastError, source.importedWith
                FROM source JOIN feed ON feed.id = source.feedId ORDER BY feed.slug COLLATE "C", source.location COLLATE "C"
                """, logger: self.logger).decode((String, String, String?, String?, Date?, Date?, String?, String?).self) {
                sources.append(SourceStatus(feed: slug, location: location, etag: etag, lastModifiedHeader: modified, lastFetchedAt: fetched,
                                            lastSuccessAt: success, lastError: error, importedWith: importedWith))
            }
            return sources
        }
    }

    public func subscriptions() async throws -> [SourceSubscription] {
        try await read { connection in
            var list: [SourceSubscription] = []
            for try await (slug, location, login, rules) in try await connection.query("""
                SELECT feed.slug, source.location, source.login, source.rules FROM source JOIN feed ON feed.id = source.feedId WHERE source.subscribed
                ORDER BY feed.slug COLLATE "C", source.location COLLATE "C"
                """, logger: self.logger).decode((String, String, String?, String?).self) {
                list.append(SourceSubscription(feed: slug, location: location, login: login, rules: rules))
            }
            return list
        }
    }
}
