import Countdowns
import CountdownStore
import Foundation
import ICalendar

extension CountdownService {
    /// How many rows one round reads and places per transaction.
    public static let placeBatch = 2_000

    /// Places the countdowns whose place in their feed's list is unknown
    /// (rows written before 0.14, the upgrade's backfill) or may tighten now
    /// (`PlaceBound.checkAt`: a repeat whose shown occurrence is over), a
    /// batch per transaction, until none is left; returns how many it wrote.
    ///
    /// A place is only a lower bound, so one placed late costs the first page
    /// a wider read, never a wrong order: the server runs this at start and
    /// hourly, every replica alike (two writing the same row write the same
    /// bound). Rows are read and placed outside the transaction, which holds
    /// the writer, and written only if nobody changed them meanwhile (a
    /// writer places what it writes). No revision moves: nothing served changes.
    public func placeCountdowns(progress: (@Sendable (Int) -> Void)? = nil) async throws -> Int {
        try await authorize(.administer)
        var written = 0
        while true {
            let now = clock()
            let due = try await store.read { try await $0.rowsToPlace(dueBy: PlaceBound.seconds(now), limit: Self.placeBatch) }
            guard !due.isEmpty else { break }
            // Parsing and expanding: on a thread of its own, never the cooperative pool's (nor Dispatch's, which it runs on).
            let placed = try await Offload.run {
                due.map { row in
                    var placed = row
                    // One that cannot be read is placed first for ever: the compile names what is wrong with it.
                    placed.place = (try? row.countdown(source: nil)).map { PlaceBound($0, at: now) } ?? PlaceBound(rank: 0, from: .min, checkAt: .max)
                    return placed
                }
            }
            let count = try await transaction { tx -> Int in
                var unchanged: [CountdownRecord] = []
                for (old, new) in zip(due, placed) {
                    guard let id = old.id, try await tx.countdownRows(.id(id, lock: true)).first == old else { continue }
                    unchanged.append(new)
                }
                _ = try await tx.saveCountdowns(unchanged)
                return unchanged.count
            }
            written += count
            progress?(written)
            if due.count < Self.placeBatch { break }
        }
        return written
    }
}
