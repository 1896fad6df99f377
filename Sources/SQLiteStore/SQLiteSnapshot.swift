import CountdownStore
import Foundation
import GRDB

extension SQLiteCountdownStore {
    public func snapshot() async throws -> StoreSnapshot {
        try await readDatabase { db in
            var snapshot = StoreSnapshot()
            for table in StoreTable.all {
                snapshot.tables[table.name] = try Row.fetchAll(db, sql: "SELECT \(table.columnList) FROM \(table.name) ORDER BY \(table.key)").map { row in
                    table.columns.enumerated().map { index, column in Self.value(row, index, column.kind) }
                }
            }
            return snapshot
        }
    }

    public func restore(_ snapshot: StoreSnapshot) async throws {
        try await write { db in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM feed") == 0 else {
                throw StoreError.invalid("\(self.path) already holds feeds; copy into an empty database")
            }
            // Settings and sessions of a fresh store (its CSRF key) give way to the copied ones.
            try db.execute(sql: "DELETE FROM setting")
            try db.execute(sql: "DELETE FROM persistEntry")
            for table in StoreTable.all {
                let marks = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
                let statement = try db.cachedStatement(sql: "INSERT INTO \(table.name) (\(table.columnList)) VALUES (\(marks))")
                for row in snapshot.tables[table.name] ?? [] {
                    try statement.execute(arguments: StatementArguments(row.map(Self.databaseValue)))
                }
            }
        }
    }

    private static func value(_ row: Row, _ index: Int, _ kind: StoreTable.Kind) -> StoreValue {
        if row.hasNull(atIndex: index) { return .null }
        switch kind {
        case .integer: return .integer(row[index])
        case .text: return .text(row[index])
        case .boolean: return .boolean(row[index])
        case .date: return .date(row[index])
        case .blob: return .blob(row[index])
        }
    }

    static func databaseValue(_ value: StoreValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .boolean(let flag): flag.databaseValue
        case .date(let date): date.databaseValue
        case .blob(let data): data.databaseValue
        }
    }
}
