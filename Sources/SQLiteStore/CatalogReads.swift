import Countdowns
import CountdownStore
import Foundation
import GRDB

/// What a server that keeps compiled feeds in memory reads: a cheap list of feed
/// revisions to poll, and a feed's countdowns that re-parses only the rows that
/// changed since the caller's last read.
extension SQLiteCountdownStore {
    public func feedVersions() async throws -> [FeedVersion] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT slug, revision FROM feed ORDER BY slug").map { FeedVersion(slug: $0["slug"], revision: $0["revision"]) }
        }
    }

    /// A feed and all its countdowns, read in one transaction so that they match
    /// the feed's revision. Countdowns in `known` whose row has not changed
    /// (same sequence, stamps and source) are reused instead of parsed again.
    public func feedContents(slug: String, reusing known: [Int64: Countdown]) async throws -> (feed: StoredFeed, countdowns: [Countdown])? {
        try await read { db in
            guard let record = try FeedRecord.filter(Column("slug") == slug).fetchOne(db) else { return nil }
            let rows = try Row.fetchAll(db, sql: """
                SELECT countdown.id, countdown.sequence, countdown.createdAt, countdown.lastModified, source.location AS sourceLocation
                FROM countdown LEFT JOIN source ON source.id = countdown.sourceId
                WHERE countdown.feedId = ? ORDER BY startsOn, title, countdown.id
                """, arguments: [try record.savedID()])
            var countdowns: [Countdown?] = []
            countdowns.reserveCapacity(rows.count)
            var missing: [Int64: Int] = [:]
            for row in rows {
                let id: Int64 = row["id"]
                let stamp = RowStamp(id: id, sequence: row["sequence"], created: row["createdAt"], lastModified: row["lastModified"],
                                     source: row["sourceLocation"])
                if let old = known[id], stamp.matches(old) {
                    countdowns.append(old)
                } else {
                    missing[id] = countdowns.count
                    countdowns.append(nil)
                }
            }
            if !missing.isEmpty {
                // Changed rows are parsed again; the rest were reused as they were.
                let changed = try Row.fetchCursor(db, sql: """
                    SELECT countdown.*, source.location AS sourceLocation FROM countdown
                    LEFT JOIN source ON source.id = countdown.sourceId WHERE countdown.feedId = ?
                    """, arguments: [try record.savedID()])
                while let row = try changed.next() {
                    guard let index = missing[row["id"]] else { continue }
                    countdowns[index] = try CountdownRecord(row: row).countdown(source: row["sourceLocation"])
                }
            }
            let all = countdowns.compactMap { $0 }
            let feed = try StoredFeed(record, categoryColors: try CategoryRecord.colors(db, feedId: record.savedID()), countdownCount: all.count)
            return (feed, all)
        }
    }

    /// Every token that is not revoked, to answer `/t/{token}/…` from memory.
    public func activeTokens() async throws -> [ActiveToken] {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT feedToken.id, feedToken.tokenHash, feed.slug, feedToken.visibility FROM feedToken
                JOIN feed ON feed.id = feedToken.feedId WHERE revokedAt IS NULL ORDER BY feedToken.id
                """).map { ActiveToken(id: $0["id"], hash: $0["tokenHash"], slug: $0["slug"], visibility: $0["visibility"]) }
        }
    }

    /// SQL statements run since the store was opened (all connections).
    public var statementCount: Int { statements.value }
}
