import Countdowns
import CountdownStore
import Foundation
import PostgresNIO

extension PostgresCountdownStore {
    /// Writes an import in one transaction, with the same decisions as SQLite's
    /// (`ImportPlan`). The feed row is locked first, so that two replicas
    /// importing into one feed take turns instead of racing on its UIDs.
    public func apply(_ batch: ImportBatch, intoFeed slug: String, options: ImportOptions,
                      progress: (@Sendable (Int, Int) -> Void)?) async throws -> ImportReport {
        let now = clock()
        let report = try await transaction { connection -> ImportReport in
            var feed = try await self.feedRecord(connection, slug: slug, lock: true)
            let created = feed == nil
            if created {
                guard options.createFeed else { throw StoreError.feedNotFound(slug) }
                feed = try await self.insert(FeedRecord(batch.feedTemplate, now: now), connection)
            }
            let feedId = feed!.id!
            let sourceId = try await options.source.asyncMap { try await self.sourceId(connection, feedId: feedId, location: $0) }
            var existing: [String: ImportPlan.Existing] = [:]
            for try await (id, uid, content, sequence, lastModified, rowSource) in try await connection.query("""
                SELECT id, uid, content, sequence, lastModified, sourceId FROM countdown WHERE feedId = \(feedId)
                """, logger: self.logger).decode((Int64, String, String, Int, Date, Int64?).self) {
                existing[uid] = ImportPlan.Existing(id: id, content: content, sequence: sequence, lastModified: lastModified, sourceId: rowSource)
            }
            let plan = ImportPlan(batch: batch, existing: existing, sourceId: sourceId, sync: options.sync, now: now)
            for (position, step) in plan.steps.enumerated() {
                switch step {
                case .unchanged:
                    break
                case .update(let index, let id, let sequence, let lastModified):
                    let incoming = batch.countdowns[index]
                    try await connection.query("""
                        UPDATE countdown SET sequence = \(sequence), lastModified = \(lastModified), content = \(batch.contents[index]),
                            title = \(incoming.title), kind = \(incoming.kind.rawValue), status = \(incoming.status.rawValue),
                            startsOn = \(incoming.target.civilDate.iso), sourceId = COALESCE(\(sourceId), sourceId)
                        WHERE id = \(id)
                        """, logger: self.logger)
                    try await self.link(connection, countdownId: id, feedId: feedId, names: incoming.categories, replacing: true)
                case .insert(let index):
                    var fresh = batch.countdowns[index]
                    fresh.created = fresh.created ?? now
                    fresh.lastModified = now
                    let record = CountdownRecord(fresh, feedId: feedId, sourceId: sourceId, now: now, content: batch.contents[index])
                    let id = try await self.insert(record, connection)
                    try await self.link(connection, countdownId: id, feedId: feedId, names: fresh.categories, replacing: false)
                }
                if position % 500 == 499 { progress?(position + 1, plan.steps.count) }
            }
            if !plan.removals.isEmpty {
                try await connection.query("DELETE FROM countdown WHERE id = ANY(\(plan.removals))", logger: self.logger)
            }
            try await self.saveCategoryColors(connection, feedId: feedId, colors: batch.categoryColors)
            if let sourceId {
                try await connection.query("""
                    UPDATE source SET lastFetchedAt = \(now), lastSuccessAt = \(now), lastError = NULL WHERE id = \(sourceId)
                    """, logger: self.logger)
            }
            if plan.changesFeed || created { try await self.touch(connection, feedId: feedId, now: now) }
            return plan.report(from: batch)
        }
        progress?(batch.countdowns.count, batch.countdowns.count)
        return report
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
