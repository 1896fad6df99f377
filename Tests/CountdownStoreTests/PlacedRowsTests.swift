import Countdowns
import Foundation
import ICalendar
import Testing
@testable import CountdownStore

/// The reads by place (`StoreReader.placedRows`, `rowsToPlace`, issue #41) on
/// every store: a feed's first rows in place order (unplaced first), its
/// counts of one category compared lower-cased, the open tasks near enough
/// to count, and the rows the place round is due to look at.
struct PlacedRowsTests {
    static func row(_ uid: String, feedId: Int64, place: PlaceBound?, kind: Countdown.Kind = .event, status: CountdownStatus = .active,
                    now: Date) -> CountdownRecord {
        var countdown = Countdown(uid: uid, title: uid, target: .date(CivilDate(year: 2027, month: 1, day: 1)), kind: kind)
        countdown.status = status
        var row = CountdownRecord(countdown, feedId: feedId, sourceId: nil, now: now)
        row.place = place
        return row
    }

    @Test(arguments: StoreBackend.available) func aFeedsFirstRowsComeInPlaceOrderWithItsCounts(_ backend: StoreBackend) async throws {
        let store = try await TemporaryStore.make(backend).store
        let (feedId, otherId) = try await store.transaction { tx in
            (try await tx.save(FeedRecord(Feed(slug: "big"), now: tx.now)).savedID(), try await tx.save(FeedRecord(Feed(slug: "other"), now: tx.now)).savedID())
        }
        let ids = try await store.transaction { tx in
            let ids = try await tx.saveCountdowns([
                Self.row("late", feedId: feedId, place: PlaceBound(rank: 0, from: 900, checkAt: 2_000), now: tx.now),
                Self.row("done", feedId: feedId, place: PlaceBound(rank: 1, from: 10, checkAt: .max), now: tx.now),
                Self.row("soon", feedId: feedId, place: PlaceBound(rank: 0, from: 100, checkAt: .max), now: tx.now),
                Self.row("unplaced", feedId: feedId, place: nil, now: tx.now),
                Self.row("task-near", feedId: feedId, place: PlaceBound(rank: 0, from: 500, checkAt: .max), kind: .task, now: tx.now),
                Self.row("task-far", feedId: feedId, place: PlaceBound(rank: 0, from: 5_000, checkAt: 1_000), kind: .task, now: tx.now),
                Self.row("task-done", feedId: feedId, place: PlaceBound(rank: 1, from: 1, checkAt: .max), kind: .task, status: .completed, now: tx.now),
                Self.row("elsewhere", feedId: otherId, place: PlaceBound(rank: 0, from: 0, checkAt: 1_500), now: tx.now),
            ])
            try await tx.saveCategories(feedId: feedId, colors: [:], links: [CategoryLinks(countdownId: ids[0], names: ["Élan"]),
                                                                           CategoryLinks(countdownId: ids[4], names: ["élan", "Work"])], replacing: false)
            return ids
        }
        let all = try await store.read { try await $0.placedRows(PlacedQuery(feedId: feedId, category: nil, limit: 4, tasksBefore: 1_000)) }
        #expect(all.rows.map(\.uid) == ["unplaced", "soon", "task-near", "late"], "rank, from, id; a row not placed yet first")
        #expect(all.total == 7 && all.openTasks == 2)
        #expect(all.nearTasks.map(\.uid) == ["task-near"], "an open task placed before tasksBefore; a done one is not open")
        #expect(all.rows.first?.place == nil && all.rows.last?.place == PlaceBound(rank: 0, from: 900, checkAt: 2_000), "places read back as written")

        let elan = try await store.read { try await $0.placedRows(PlacedQuery(feedId: feedId, category: "élan", limit: 10, tasksBefore: 1_000)) }
        #expect(elan.rows.map(\.uid) == ["task-near", "late"] && elan.total == 2 && elan.openTasks == 1, "both spellings of the category, lower-cased")
        let none = try await store.read { try await $0.placedRows(PlacedQuery(feedId: feedId, category: "nothing", limit: 10, tasksBefore: 1_000)) }
        #expect(none.rows.isEmpty && none.total == 0 && none.nearTasks.isEmpty)

        let through = try await store.read {
            try await $0.placedRows(PlacedQuery(feedId: feedId, category: nil, limit: 10, tasksBefore: 0, through: PlaceBound(rank: 0, from: 500, checkAt: .max)))
        }
        #expect(through.rows.map(\.uid) == ["unplaced", "soon", "task-near"], "every row placed through the bound (and the unplaced), no more")
        #expect(through.total == 7, "the counts are the feed's, whatever the rows read")

        let due = try await store.read { try await $0.rowsToPlace(dueBy: 1_600, limit: 10) }
        #expect(due.map(\.uid) == ["unplaced", "task-far", "elsewhere"], "unplaced first, then by checkAt, across feeds")
        #expect(try await store.read { try await $0.rowsToPlace(dueBy: 1_600, limit: 2) }.map(\.uid) == ["unplaced", "task-far"])
        _ = ids
    }
}
