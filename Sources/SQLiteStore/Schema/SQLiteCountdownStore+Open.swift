import CountdownStore
import Foundation
import GRDB

/// Opening a file: its schema read, refused when a newer tminus wrote it,
/// and migrated (`StoreMigrations`) when it can be written.
extension SQLiteCountdownStore {
    /// The pool, its schema checked (read-only) or brought up to date.
    static func open(_ path: String, readOnly: Bool, statements: StatementCounter) throws -> DatabasePool {
        let migrator = StoreMigrations.migrator
        if readOnly {
            let pool = try DatabasePool(path: path, configuration: configuration(readOnly: true, statements: statements))
            let applied = try pool.read { db in try migrator.appliedIdentifiers(db) }
            if let newest = applied.subtracting(migrator.migrations).sorted().last {
                throw StoreError.newerSchema(database: path, migration: newest)
            }
            if applied.isSuperset(of: migrator.migrations) { return pool }
            try pool.close()
            guard access(path, W_OK) == 0 else {
                throw StoreError.unusable("the database file \(path) was made by an older tminus and is read-only here: "
                                          + "upgrade a writable copy with `tminus migrate --db COPY`")
            }
        }
        try PrivateFile.prepareDatabase(at: path)
        let pool = try DatabasePool(path: path, configuration: configuration(readOnly: false, statements: statements))
        // Read on the writer: a reader connection opened now would keep the
        // old schema's column lists cached after the migrations below.
        let unknown = try pool.writeWithoutTransaction { db in try migrator.appliedIdentifiers(db) }.subtracting(migrator.migrations)
        if let newest = unknown.sorted().last { throw StoreError.newerSchema(database: path, migration: newest) }
        try migrator.migrate(pool)
        pool.invalidateReadOnlyConnections()
        return pool
    }
}
