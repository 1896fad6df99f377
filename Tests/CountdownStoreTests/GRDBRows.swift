import GRDB

/// Reads a whole table in a stable order (for before/after comparisons).
enum GRDBRows {
    static func all(_ db: Database, _ table: String) throws -> [Row] {
        try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY rowid")
    }
}
