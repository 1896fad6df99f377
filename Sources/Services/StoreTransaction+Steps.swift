import Countdowns
import CountdownStore
import Foundation

/// Steps several use cases share, built from primitives: the decisions the
/// store's rows do not make themselves.
extension StoreTransaction {
    /// Raises the feed's revision and moves its `updatedAt` forward, never
    /// back: what tells every server that the feed must be compiled again.
    /// The row is read locked, so two writers of one feed take turns.
    func touch(feedId: Int64) async throws {
        guard var row = try await feedRow(id: feedId, lock: true) else { return }
        row.revision += 1
        row.updatedAt = max(row.updatedAt, now)
        _ = try await save(row)
    }

    /// The feed's source at `location`, made when new.
    func source(feedId: Int64, location: String) async throws -> SourceRecord {
        if let found = try await sourceRow(feedId: feedId, location: location, lock: true) { return found }
        return try await save(SourceRecord(feedId: feedId, location: location))
    }

    /// Files changes to countdowns in the log (a space's activity, a calendar
    /// client's sync), each as its row says (saved: with its id). Every use
    /// case that writes or deletes a countdown row calls it in the same
    /// transaction, so the log never misses a change.
    func log(_ kind: ChangeKind, _ rows: [CountdownRecord], by actor: ChangeActor) async throws {
        guard !rows.isEmpty else { return }
        try await appendChanges(rows.map { row in
            ChangeRecord(feedId: row.feedId, countdownId: row.id ?? 0, uid: row.uid, kind: kind, title: row.title, actor: actor.label, at: now,
                         actorPerson: actor.personId)
        })
    }

    /// Adds changes to the log, in order; each gets the next id.
    func appendChanges(_ rows: [ChangeRecord]) async throws {
        for row in rows { _ = try await save(row) }
    }

    /// Links countdowns to their categories (no colours change).
    func link(_ links: [CategoryLinks], feedId: Int64, replacing: Bool) async throws {
        try await saveCategories(feedId: feedId, colors: [:], links: links, replacing: replacing)
    }
}
