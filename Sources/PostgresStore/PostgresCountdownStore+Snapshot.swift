import CountdownStore
import Foundation
import PostgresNIO

extension PostgresCountdownStore {
    public func snapshot() async throws -> StoreSnapshot {
        try await inTransaction { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: self.logger)
            var snapshot = StoreSnapshot()
            for table in StoreTable.all {
                var rows: [[StoreValue]] = []
                for row in try await connection.query(PostgresQuery(unsafeSQL: "SELECT \(table.columnList) FROM \(table.name) ORDER BY \(table.key)"),
                                                      logger: self.logger).rows() {
                    let cells = row.makeRandomAccess()
                    rows.append(try table.columns.enumerated().map { index, column in try Self.value(cells[index], column.kind) })
                }
                snapshot.tables[table.name] = rows
            }
            return snapshot
        }
    }

    public func restore(_ snapshot: StoreSnapshot) async throws {
        try await inTransaction { connection in
            let feeds = try await connection.query("SELECT count(*) FROM feed", logger: self.logger).collect(Int64.self).first ?? 0
            guard feeds == 0 else { throw StoreError.invalid("\(self.location) already holds feeds; copy into an empty database") }
            try await connection.query("DELETE FROM setting", logger: self.logger)
            try await connection.query("DELETE FROM persistEntry", logger: self.logger)
            for table in StoreTable.all {
                let marks = (1...table.columns.count).map { "$\($0)" }.joined(separator: ", ")
                let sql = "INSERT INTO \(table.name) (\(table.columnList)) VALUES (\(marks))"
                for row in snapshot.tables[table.name] ?? [] {
                    var bindings = PostgresBindings(capacity: row.count)
                    for (value, column) in zip(row, table.columns) { try Self.bind(value, column.kind, to: &bindings) }
                    try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: self.logger)
                }
                if table.key == "id" {
                    // The next id continues after the copied ones.
                    try await connection.query(PostgresQuery(unsafeSQL: """
                        SELECT setval(pg_get_serial_sequence('\(table.name.lowercased())', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM \(table.name)
                        """), logger: self.logger)
                }
            }
            for try await (slug, revision, personId, spaceId) in try await connection.query("SELECT slug, revision, personId, spaceId FROM feed",
                                                                                          logger: self.logger)
                .decode((String, Int64, Int64?, Int64?).self) {
                try await self.notify(connection, slug: slug, revision: revision, owner: StorageOwner(personId: personId, spaceId: spaceId))
            }
        }
    }

    /// A cell as the kind of value its column holds.
    static func value(_ cell: PostgresCell, _ kind: StoreTable.Kind) throws -> StoreValue {
        switch kind {
        case .integer: return try cell.decode(Int64?.self).map(StoreValue.integer) ?? .null
        case .text: return try cell.decode(String?.self).map(StoreValue.text) ?? .null
        case .boolean: return try cell.decode(Bool?.self).map(StoreValue.boolean) ?? .null
        case .date: return try cell.decode(Date?.self).map(StoreValue.date) ?? .null
        case .blob: return try cell.decode(Data?.self).map(StoreValue.blob) ?? .null
        }
    }

    /// Binds a cell as the kind of value its column holds.
    static func bind(_ value: StoreValue, _ kind: StoreTable.Kind, to bindings: inout PostgresBindings) throws {
        switch value {
        case .null: bindings.appendNull()
        case .integer(let number): bindings.append(number)
        case .text(let text): bindings.append(text)
        case .boolean(let flag): bindings.append(flag)
        case .date(let date): bindings.append(date)
        case .blob(let data): try bindings.append(data)
        }
    }
}
