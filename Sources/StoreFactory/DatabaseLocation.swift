import SQLiteStore
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

    /// Opens the store, brings its schema up to date, runs `body` with it, and
    /// closes it. PostgreSQL's connection pool runs in a child task for exactly
    /// that long: structured, so nothing of the store's outlives the call, and
    /// nothing spins waiting for it. The logger is for that pool; SQLite logs nothing.
    /// `readOnly` opens a SQLite file without writing it (PostgreSQL and memory
    /// are opened as ever: their reads need no write access to anything).
    public func withStore<T>(clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger? = nil, readOnly: Bool = false,
                             _ body: (any CountdownStore) async throws -> T) async throws -> T {
        switch self {
        case .sqlite(let path): return try await Self.using(try SQLiteCountdownStore(path: path, clock: clock, readOnly: readOnly), body)
        case .memory: return try await Self.using(InMemoryCountdownStore(clock: clock), body)
        case .postgres(let location):
            let store = PostgresCountdownStore(location, clock: clock, logger: logger ?? Logger(label: "tminus"))
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await store.run() }
                defer { group.cancelAll() }
                try await store.migrate()
                return try await body(store)
            }
        }
    }

    /// Closing is cleanup: what `body` wrote is committed by then, so a store
    /// that cannot be closed cleanly does not turn finished work into an error.
    private static func using<T>(_ store: any CountdownStore, _ body: (any CountdownStore) async throws -> T) async throws -> T {
        let result: T
        do { result = try await body(store) } catch {
            try? await store.close()
            throw error
        }
        try? await store.close()
        return result
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
