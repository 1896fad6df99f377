import Countdowns
import CountdownStore
import Foundation

/// What an import changes, decided once for every store: each incoming
/// countdown is new, changed or unchanged against the feed's rows (by UID), and
/// with `sync` the rows of the same source that the calendar no longer has go.
/// SEQUENCE and LAST-MODIFIED rise only on a real change (the canonical texts
/// differ), and never move back.
public struct ImportPlan: Sendable {
    /// The part of an existing row the decision needs.
    public typealias Existing = CountdownState

    public enum Step: Sendable {
        /// A new row: `batch.countdowns[index]`, created when the calendar says (or now).
        case insert(index: Int)
        /// A changed row: its new sequence and last-modified.
        case update(index: Int, id: Int64, sequence: Int, lastModified: Date)
        case unchanged
    }

    public private(set) var steps: [Step] = []
    /// Row ids to delete (`sync` only).
    public private(set) var removals: [Int64] = []
    public private(set) var added = 0, updated = 0, unchanged = 0

    public init(batch: ImportBatch, existing: [String: Existing], sourceId: Int64?, sync: Bool, now: Date) {
        steps.reserveCapacity(batch.countdowns.count)
        var seen = Set<String>()
        for (index, incoming) in batch.countdowns.enumerated() {
            seen.insert(incoming.uid)
            guard let row = existing[incoming.uid] else {
                steps.append(.insert(index: index))
                added += 1
                continue
            }
            if row.content == batch.contents[index] {
                steps.append(.unchanged)
                unchanged += 1
            } else {
                steps.append(.update(index: index, id: row.id, sequence: max(row.sequence + 1, incoming.sequence),
                                     lastModified: max(now, row.lastModified)))
                updated += 1
            }
        }
        if sync, let sourceId {
            removals = existing.filter { uid, row in row.sourceId == sourceId && !seen.contains(uid) }.map(\.value.id).sorted()
        }
    }

    /// True when the import changes the feed (its revision then rises).
    public var changesFeed: Bool { added + updated + removals.count > 0 }

    /// Counts for the report; skipped components and diagnostics come from the batch.
    public func report(from batch: ImportBatch) -> ImportReport {
        var report = batch.report
        report.added = added
        report.updated = updated
        report.unchanged = unchanged
        report.removed = removals.count
        return report
    }
}
