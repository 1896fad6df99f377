import Countdowns
import Foundation
import GRDB

extension SQLiteCountdownStore {
    /// Writes an import in one transaction (what `importCalendar` read; the
    /// decisions are `ImportPlan`'s). Statements are prepared once and reused:
    /// an import writes thousands of rows.
    public func apply(_ batch: ImportBatch, intoFeed slug: String, options: ImportOptions,
                      progress: (@Sendable (Int, Int) -> Void)?) async throws -> ImportReport {
        let now = clock()
        let report = try await write { db -> ImportReport in
            var feed = try FeedRecord.filter(Column("slug") == slug).fetchOne(db)
            let created = feed == nil
            if created {
                guard options.createFeed else { throw StoreError.feedNotFound(slug) }
                var record = FeedRecord(batch.feedTemplate, now: now)
                try record.insert(db)
                feed = record
            }
            let feedId = feed!.id!
            let sourceId = try options.source.map { try SourceRecord.findOrCreate(db, feedId: feedId, location: $0).id! }
            var existing: [String: ImportPlan.Existing] = [:]
            for record in try CountdownRecord.filter(Column("feedId") == feedId).fetchAll(db) {
                existing[record.uid] = ImportPlan.Existing(id: record.id!, content: record.content, sequence: record.sequence,
                                                           lastModified: record.lastModified, sourceId: record.sourceId)
            }
            let plan = ImportPlan(batch: batch, existing: existing, sourceId: sourceId, sync: options.sync, now: now)
            var categories = CategoryRecord.Linker(feedId: feedId)
            for (position, step) in plan.steps.enumerated() {
                switch step {
                case .unchanged:
                    break
                case .update(let index, let id, let sequence, let lastModified):
                    let incoming = batch.countdowns[index]
                    try db.cachedStatement(sql: """
                        UPDATE countdown SET sequence = ?, lastModified = ?, content = ?, title = ?, kind = ?, status = ?, startsOn = ?,
                        sourceId = COALESCE(?, sourceId) WHERE id = ?
                        """).execute(arguments: [sequence, lastModified, batch.contents[index], incoming.title, incoming.kind.rawValue,
                                                 incoming.status.rawValue, incoming.target.civilDate.iso, sourceId, id])
                    try categories.link(db, countdownId: id, names: incoming.categories, replacing: true)
                case .insert(let index):
                    var fresh = batch.countdowns[index]
                    fresh.created = fresh.created ?? now
                    fresh.lastModified = now
                    var record = CountdownRecord(fresh, feedId: feedId, sourceId: sourceId, now: now, content: batch.contents[index])
                    try record.insertPrepared(db)
                    try categories.link(db, countdownId: record.id!, names: fresh.categories, replacing: false)
                }
                if position % 500 == 499 { progress?(position + 1, plan.steps.count) }
            }
            for id in plan.removals { try db.execute(sql: "DELETE FROM countdown WHERE id = ?", arguments: [id]) }
            try saveCategoryColors(db, feedId: feedId, colors: batch.categoryColors)
            if let sourceId {
                try db.execute(sql: "UPDATE source SET lastFetchedAt = ?, lastSuccessAt = ?, lastError = NULL WHERE id = ?",
                               arguments: [now, now, sourceId])
            }
            if plan.changesFeed || created { try FeedRecord.touch(db, feedId: feedId, now: now) }
            return plan.report(from: batch)
        }
        progress?(batch.countdowns.count, batch.countdowns.count)
        return report
    }
}
