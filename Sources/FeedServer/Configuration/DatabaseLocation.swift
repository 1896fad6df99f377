import CountdownStore
import Foundation
import Logging
import PostgresStore

/// What `--db` names: a SQLite file (the default; nothing to run beside it),
/// a `postgres://` URL (several replicas sharing one database), or `:memory:`
/// (nothing is written: a trial run, or a test of everything above the store).
public enum DatabaseLocation: Sendable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresLocation)
    case memory

    /// SQLite's own name for a database that lives in memory.
    public static let memoryName = ":memory:"

    public init(_ value: String) throws {
        if value == Self.memoryName {
            self = .memory
        } else {
            self = PostgresLocation.isPostgres(value) ? .postgres(try PostgresLocation(value)) : .sqlite(path: value)
        }
    }

    /// Opens the store and brings its schema up to date. The logger is for
    /// PostgreSQL's connection pool; SQLite logs nothing.
    public func open(limits: StoreLimits = StoreLimits(), clock: @escaping @Sendable () -> Date = { Date() },
                     logger: Logger? = nil) async throws -> any CountdownStore {
        switch self {
        case .sqlite(let path): try SQLiteCountdownStore(path: path, limits: limits, clock: clock)
        case .postgres(let location):
            try await PostgresCountdownStore(location, limits: limits, clock: clock, logger: logger ?? Logger(label: "tminus"))
        case .memory: InMemoryCountdownStore(limits: limits, clock: clock)
        }
    }

    /// The file, for SQLite.
    public var path: String? {
        if case .sqlite(let path) = self { return path }
        return nil
    }

    /// The path or the URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let location): location.description
        case .memory: Self.memoryName
        }
    }
}
