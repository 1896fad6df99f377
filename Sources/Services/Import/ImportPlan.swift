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
    /// Incoming countdowns left out because a preferred source has them.
    public private(set) var duplicates = 0

    /// The rows of the feed's other sources that an incoming countdown may
    /// duplicate, as `DuplicatePolicy` decides (`CountdownService.rivals`).
    public struct Rivals: Sendable {
        /// A row another source owns, and that source's rank (0 is preferred).
        public struct Row: Sendable {
            public var id: Int64
            public var uid: String
            public var rank: Int
        }

        /// This import's source's rank.
        public var rank: Int
        /// The ranks of the other sources, by source id.
        public var ranks: [Int64: Int]
        /// The best-ranked other row for each title-and-start key (empty when comparing UIDs only).
        public var byTitle: [String: Row]
        /// The incoming countdown's title-and-start key, nil when comparing UIDs only.
        public var titleKey: (@Sendable (Countdown) -> String)?
    }

    public init(batch: ImportBatch, existing: [String: Existing], sourceId: Int64?, sync: Bool, now: Date, rivals: Rivals? = nil) {
        steps.reserveCapacity(batch.countdowns.count)
        var seen = Set<String>()
        var displaced = Set<Int64>()
        for (index, incoming) in batch.countdowns.enumerated() {
            var claims = false
            if let rivals {
                // The same UID held by another ranked source: the better rank keeps the row.
                if let row = existing[incoming.uid], let owner = row.sourceId, owner != sourceId, let rank = rivals.ranks[owner] {
                    if rank < rivals.rank {
                        steps.append(.unchanged)
                        duplicates += 1
                        continue
                    }
                    claims = true
                }
                // The same title and start under another UID: the better rank's row stays, the other goes.
                if let key = rivals.titleKey?(incoming), let rival = rivals.byTitle[key], rival.uid != incoming.uid {
                    if rival.rank < rivals.rank {
                        steps.append(.unchanged)
                        duplicates += 1
                        continue
                    }
                    displaced.insert(rival.id)
                }
            }
            seen.insert(incoming.uid)
            guard let row = existing[incoming.uid] else {
                steps.append(.insert(index: index))
                added += 1
                continue
            }
            if row.content == batch.contents[index] {
                if claims {
                    // The same content, now this source's: written, but nothing a reader sees changes.
                    steps.append(.update(index: index, id: row.id, sequence: row.sequence, lastModified: row.lastModified))
                } else {
                    steps.append(.unchanged)
                }
                unchanged += 1
            } else {
                steps.append(.update(index: index, id: row.id, sequence: max(row.sequence + 1, incoming.sequence),
                                     lastModified: max(now, row.lastModified)))
                updated += 1
            }
        }
        var removed = displaced
        if sync, let sourceId {
            removed.formUnion(existing.filter { uid, row in row.sourceId == sourceId && !seen.contains(uid) }.map(\.value.id))
        }
        removals = removed.sorted()
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
        report.duplicates = duplicates
        return report
    }
}
