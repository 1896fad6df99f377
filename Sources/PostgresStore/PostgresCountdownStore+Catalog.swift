import Countdowns
import CountdownStore
import Foundation
import PostgresNIO

extension PostgresCountdownStore {
    public func feedVersions() async throws -> [FeedVersion] {
        try await read { connection in
            var versions: [FeedVersion] = []
            for try await (slug, revision) in try await connection.execute(PreparedStatements.FeedVersions(), logger: self.logger) {
                versions.append(FeedVersion(slug: slug, revision: revision))
            }
            return versions
        }
    }

    /// A feed and its countdowns in one REPEATABLE READ snapshot, so that they
    /// match the revision read with them. Unchanged rows (same sequence, stamps
    /// and source) are reused from `known`; only changed ones are fetched whole
    /// and parsed, the parsing on a thread of its own.
    public func feedContents(slug: String, reusing known: [Int64: Countdown]) async throws -> (feed: StoredFeed, countdowns: [Countdown])? {
        let (found, colors, stamps, changed) = try await inTransaction { connection -> (FeedRecord?, [String: String], [RowStamp], [(CountdownRecord, String?)]) in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: self.logger)
            guard let record = try await self.feedRecord(connection, slug: slug) else { return (nil, [:], [], []) }
            let feedId = try record.savedID()
            var stamps: [RowStamp] = []
            for try await (id, sequence, created, modified, location) in try await connection.execute(
                PreparedStatements.CountdownStamps(feedId: feedId), logger: self.logger) {
                stamps.append(RowStamp(id: id, sequence: sequence, created: created, lastModified: modified, source: location))
            }
            let missing = stamps.filter { stamp in !(known[stamp.id].map(stamp.matches) ?? false) }.map(\.id)
            var changed: [(CountdownRecord, String?)] = []
            if !missing.isEmpty {
                for row in try await connection.query("""
                    SELECT \(unescaped: Self.countdownColumns), source.location FROM countdown
                    LEFT JOIN source ON source.id = countdown.sourceId WHERE countdown.id = ANY(\(missing))
                    """, logger: self.logger).rows() {
                    changed.append((try Self.countdownRecord(row), try row.makeRandomAccess()[12].decode(String?.self)))
                }
            }
            return (record, try await self.categoryColors(connection, feedId: feedId), stamps, changed)
        }
        guard let record = found else { return nil }
        let parsed = try await Offload.run {
            try Dictionary(uniqueKeysWithValues: changed.map { row, source in (try row.savedID(), try row.countdown(source: source)) })
        }
        let countdowns = stamps.compactMap { parsed[$0.id] ?? known[$0.id] }
        let feed = try StoredFeed(record, categoryColors: colors, countdownCount: countdowns.count)
        return (feed, countdowns)
    }

    public func activeTokens() async throws -> [ActiveToken] {
        try await read { connection in
            var tokens: [ActiveToken] = []
            for try await (id, hash, slug, visibility) in try await connection.execute(PreparedStatements.ActiveTokens(), logger: self.logger) {
                tokens.append(ActiveToken(id: id, hash: hash, slug: slug, visibility: visibility))
            }
            return tokens
        }
    }
}
