import Countdowns
import CountdownStore
import Foundation
import GRDB

/// The reads of countdowns by their place in a feed's list (`PlaceBound`,
/// issue #41), over the index `countdown_feedId_place` (and
/// `countdown_placeCheckAt` for the place round).
extension SQLiteTransaction {
    package func placedRows(_ query: PlacedQuery) async throws -> PlacedRows {
        try await on { db in
            var scope = "feedId = ?"
            if query.category != nil {
                // Compared lower-cased in Swift, as a compiled feed does: SQLite's lower() knows ASCII only.
                let ids = try Row.fetchAll(db, sql: "SELECT id, name FROM category WHERE feedId = ?", arguments: [query.feedId])
                    .filter { query.matches(category: $0["name"]) }.map { (row: Row) -> Int64 in row["id"] }
                guard !ids.isEmpty else { return PlacedRows(rows: [], total: 0, openTasks: 0, nearTasks: []) }
                scope += " AND id IN (SELECT countdownId FROM countdownCategory WHERE categoryId IN (\(ids.map(String.init).joined(separator: ", "))))"
            }
            var arguments: StatementArguments = [query.feedId]
            var reach = ""
            if let through = query.through {
                reach = " AND (placeRank IS NULL OR placeFrom IS NULL OR placeRank < ? OR (placeRank = ? AND placeFrom <= ?))"
                arguments += [through.rank, through.rank, through.from]
            }
            let rows = try CountdownRecord.fetchAll(db, sql: "SELECT * FROM countdown WHERE \(scope)\(reach) ORDER BY placeRank, placeFrom, id LIMIT ?",
                                                    arguments: arguments + [max(0, query.limit)])
            let counts = try Row.fetchOne(db, sql: """
                SELECT count(*) AS total, coalesce(sum(kind = 'task' AND status = 'active'), 0) AS openTasks FROM countdown WHERE \(scope)
                """, arguments: [query.feedId])
            let nearTasks = try CountdownRecord.fetchAll(db, sql: """
                SELECT * FROM countdown WHERE \(scope) AND kind = 'task' AND status = 'active' AND (placeFrom IS NULL OR placeFrom < ?) ORDER BY id
                """, arguments: [query.feedId, query.tasksBefore])
            return PlacedRows(rows: rows, total: counts?["total"] ?? 0, openTasks: counts?["openTasks"] ?? 0, nearTasks: nearTasks)
        }
    }

    package func rowsToPlace(dueBy: Int64, limit: Int) async throws -> [CountdownRecord] {
        try await on { db in
            let unplaced = try CountdownRecord.fetchAll(db, sql: "SELECT * FROM countdown WHERE placeCheckAt IS NULL ORDER BY id LIMIT ?",
                                                        arguments: [max(0, limit)])
            guard unplaced.count < limit else { return unplaced }
            return unplaced + (try CountdownRecord.fetchAll(db, sql: """
                SELECT * FROM countdown WHERE placeCheckAt <= ? ORDER BY placeCheckAt, id LIMIT ?
                """, arguments: [dueBy, limit - unplaced.count]))
        }
    }
}
