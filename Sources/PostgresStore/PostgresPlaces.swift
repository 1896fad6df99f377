import Countdowns
import CountdownStore
import Foundation
import PostgresNIO

/// The reads of countdowns by their place in a feed's list (`PlaceBound`,
/// issue #41), over the indexes `countdown_feedId_place` and
/// `countdown_placeCheckAt`, in SQLite's order (a NULL before every value).
extension PostgresTransaction {
    func placedRows(_ query: PlacedQuery) async throws -> PlacedRows {
        let table = CountdownRecord.table
        var scope = "feedId = $1"
        if query.category != nil {
            // Compared lower-cased in Swift, as SQLite's store does.
            var ids: [Int64] = []
            for try await (id, name) in try await connection.query("SELECT id, name FROM category WHERE feedId = \(query.feedId)", logger: logger)
                .decode((Int64, String).self) where query.matches(category: name) { ids.append(id) }
            guard !ids.isEmpty else { return PlacedRows(rows: [], total: 0, openTasks: 0, nearTasks: []) }
            scope += " AND id IN (SELECT countdownId FROM countdownCategory WHERE categoryId IN (\(ids.map(String.init).joined(separator: ", "))))"
        }
        var reach = "", rowBinds = PostgresBindings(query.feedId)
        if let through = query.through {
            reach = " AND (placeRank IS NULL OR placeFrom IS NULL OR placeRank < $2 OR (placeRank = $2 AND placeFrom <= $3))"
            rowBinds.append(Int64(through.rank))
            rowBinds.append(through.from)
        }
        let rows = try await store.select(CountdownRecord.self, from: table, where: scope + reach, rowBinds,
                                          order: "placeRank NULLS FIRST, placeFrom NULLS FIRST, id LIMIT \(max(0, query.limit))", on: connection)
        var counts: (Int64, Int64) = (0, 0)
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT count(*), count(*) FILTER (WHERE kind = 'task' AND status = 'active') FROM countdown WHERE \(scope)
            """, binds: PostgresBindings(query.feedId)), logger: logger).decode((Int64, Int64).self) { counts = row }
        var binds = PostgresBindings(query.feedId)
        binds.append(query.tasksBefore)
        let nearTasks = try await store.select(CountdownRecord.self, from: table,
                                               where: "\(scope) AND kind = 'task' AND status = 'active' AND (placeFrom IS NULL OR placeFrom < $2)", binds,
                                               order: "id", on: connection)
        return PlacedRows(rows: rows, total: Int(counts.0), openTasks: Int(counts.1), nearTasks: nearTasks)
    }

    func rowsToPlace(dueBy: Int64, limit: Int) async throws -> [CountdownRecord] {
        let table = CountdownRecord.table
        let unplaced = try await store.select(CountdownRecord.self, from: table, where: "placeCheckAt IS NULL", order: "id LIMIT \(max(0, limit))",
                                              on: connection)
        guard unplaced.count < limit else { return unplaced }
        return unplaced + (try await store.select(CountdownRecord.self, from: table, where: "placeCheckAt <= $1", PostgresBindings(dueBy),
                                                  order: "placeCheckAt, id LIMIT \(limit - unplaced.count)", on: connection))
    }
}
