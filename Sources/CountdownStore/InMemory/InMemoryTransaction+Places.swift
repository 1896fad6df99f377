import Countdowns
import Foundation

/// The reads by place (`PlaceBound`) over plain values, in the order the databases' indexes give.
extension InMemoryTransaction {
    package func placedRows(_ query: PlacedQuery) async throws -> PlacedRows {
        tables.withLock { tables in
            let categoryIds = Set(tables.categories.values.filter { $0.feedId == query.feedId && query.matches(category: $0.name) }.map(\.id))
            let scope = tables.countdowns.values.filter { row in
                row.feedId == query.feedId && (query.category == nil || !(tables.links[row.id ?? 0] ?? []).isDisjoint(with: categoryIds))
            }
            let open = scope.filter { $0.kind == .task && $0.status == .active }
            let reached = scope.filter { query.reaches(rank: $0.placeRank, from: $0.placeFrom) }
            return PlacedRows(rows: Array(reached.sorted(by: Self.placeOrder).prefix(max(0, query.limit))), total: scope.count, openTasks: open.count,
                              nearTasks: open.filter { ($0.placeFrom ?? .min) < query.tasksBefore }.sorted { ($0.id ?? 0) < ($1.id ?? 0) })
        }
    }

    package func rowsToPlace(dueBy: Int64, limit: Int) async throws -> [CountdownRecord] {
        tables.withLock { tables in
            let unplaced = tables.countdowns.values.filter { $0.placeCheckAt == nil }.sorted { ($0.id ?? 0) < ($1.id ?? 0) }
            let due = tables.countdowns.values.compactMap { row in row.placeCheckAt.flatMap { $0 <= dueBy ? (row, $0) : nil } }
                .sorted { ($0.1, $0.0.id ?? 0) < ($1.1, $1.0.id ?? 0) }.map(\.0)
            return Array((unplaced + due).prefix(max(0, limit)))
        }
    }

    /// Rank, then from, then id; an unknown value before every known one (SQLite's NULLs first).
    private static func placeOrder(_ a: CountdownRecord, _ b: CountdownRecord) -> Bool {
        let left = (a.placeRank.map { Int64($0) } ?? .min, a.placeFrom ?? .min, a.id ?? 0)
        let right = (b.placeRank.map { Int64($0) } ?? .min, b.placeFrom ?? .min, b.id ?? 0)
        return left < right
    }
}
