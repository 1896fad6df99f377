import CountdownStore
import Foundation
import PostgresNIO

/// Records read and written column for column: a table's column list
/// (`StoreTable`, shared with SQLite and `tminus copy`) builds every SELECT,
/// INSERT and UPDATE here, and `RowCoding` maps a row to its record and back,
/// so no statement names a record's columns by hand.
extension PostgresCountdownStore {
    /// The rows of `table` that `condition` (with `$1`… bound to `binds`) selects, in `order`.
    func select<Record: Decodable>(_ type: Record.Type, from table: StoreTable, where condition: String = "TRUE", _ binds: PostgresBindings = PostgresBindings(),
                                   order: String, lock: Bool = false, on connection: PostgresConnection) async throws -> [Record] {
        let sql = "SELECT \(table.columnList) FROM \(table.name) WHERE \(condition) ORDER BY \(order)\(lock ? " FOR UPDATE" : "")"
        var records: [Record] = []
        for row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).rows() {
            let cells = row.makeRandomAccess()
            records.append(try RowCoding.record(Record.self, from: table.columns.enumerated().map { index, column in
                try Self.value(cells[index], column.kind)
            }, in: table))
        }
        return records
    }

    /// Inserts a record without an id (the database gives it one) or writes
    /// every column of the record with its id, except `keeping` (columns that
    /// never change once written); returns the id.
    func save<Record: Encodable & SavedRow>(_ record: Record, in table: StoreTable, keeping: Set<String> = [],
                                            on connection: PostgresConnection) async throws -> Int64 {
        let cells = try RowCoding.cells(of: record, in: table)
        var bindings = PostgresBindings()
        var names: [String] = []
        for (column, cell) in zip(table.columns, cells) where column.name != "id" && (record.id == nil || !keeping.contains(column.name)) {
            names.append(column.name)
            try Self.bind(cell, column.kind, to: &bindings)
        }
        let sql: String
        if let id = record.id {
            bindings.append(id)
            sql = "UPDATE \(table.name) SET \(names.enumerated().map { "\($1) = $\($0 + 1)" }.joined(separator: ", ")) WHERE id = $\(names.count + 1) RETURNING id"
        } else {
            sql = "INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES (\((1...names.count).map { "$\($0)" }.joined(separator: ", "))) RETURNING id"
        }
        guard let id = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).collect(Int64.self).first else {
            throw StoreError.invalid("the \(table.name) row \(record.id.map { "\($0) " } ?? "")was not saved")
        }
        return id
    }

    /// `record` as saved: with the id the database gave it, or its own.
    func saved<Record: TableRow>(_ record: Record, in table: StoreTable, keeping: Set<String> = [],
                                                  on connection: PostgresConnection) async throws -> Record {
        var saved = record
        saved.id = try await save(record, in: table, keeping: keeping, on: connection)
        return saved
    }

    /// Tells the replicas which revision a feed is at (or, for one deleted,
    /// one past its last). NOTIFY is transactional: it goes out when the
    /// transaction commits, and never if it rolls back.
    func notify(_ connection: PostgresConnection, slug: String, revision: Int64, owner: StorageOwner?) async throws {
        let payload = FeedChange(slug: slug, revision: revision, owner: owner).payload
        try await connection.query("SELECT pg_notify(\(FeedChange.channel), \(payload))", logger: logger)
    }
}

extension PostgresBindings {
    /// Bindings of one value.
    init(_ value: some PostgresNonThrowingEncodable) {
        self.init(capacity: 1)
        append(value)
    }
}
