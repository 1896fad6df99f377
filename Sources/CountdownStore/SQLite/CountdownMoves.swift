import Countdowns
import Foundation
import GRDB

extension SQLiteCountdownStore {
    /// Moves a countdown to another feed, keeping its UID (so clients of both
    /// feeds see one event leave and the same event arrive). SEQUENCE rises, and
    /// both feeds change revision. Refused when the target already has that UID.
    @discardableResult
    public func move(id: Int64, toFeed slug: String) async throws -> Countdown {
        let now = clock()
        return try await write { db in
            guard var record = try CountdownRecord.fetchOne(db, key: id) else { throw StoreError.countdownNotFound(id) }
            let target = try requireFeed(db, slug)
            guard target.id != record.feedId else { return try record.countdown(source: nil) }
            guard try CountdownRecord.filter(CountdownRecord.Columns.feedId == target.id! && CountdownRecord.Columns.uid == record.uid).fetchCount(db) == 0 else {
                throw StoreError.duplicateUID(record.uid, feed: slug)
            }
            let names = try String.fetchAll(db, sql: """
                SELECT category.name FROM countdownCategory JOIN category ON category.id = countdownCategory.categoryId
                WHERE countdownCategory.countdownId = ? ORDER BY category.name
                """, arguments: [id])
            let from = record.feedId
            record.feedId = target.id!
            record.sourceId = nil
            record.sequence += 1
            record.lastModified = max(now, record.lastModified)
            try record.update(db)
            try db.execute(sql: "DELETE FROM countdownCategory WHERE countdownId = ?", arguments: [id])
            try CategoryRecord.link(db, countdownId: id, feedId: target.id!, names: names)
            try FeedRecord.touch(db, feedId: from, now: now)
            try FeedRecord.touch(db, feedId: target.id!, now: now)
            return try record.countdown(source: nil)
        }
    }

    /// Puts back a countdown that was deleted (the web app's Undo), with its UID,
    /// and a SEQUENCE above the one it had, so that clients take it as news.
    @discardableResult
    public func restore(_ countdown: Countdown, toFeed slug: String) async throws -> Countdown {
        let now = clock()
        return try await insertNew(CountdownStamps.restored(countdown, now: now), toFeed: slug, now: now)
    }
}
