import Countdowns
import CountdownStore
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Countdowns in PostgreSQL, shared by several `tminus serve` replicas: a
/// PostgresNIO connection pool, async all the way, every value a bound
/// parameter, and every write one transaction that raises the feed's revision
/// and sends `NOTIFY tminus_feed, '<slug>:<revision>'` before it commits (the
/// notification is delivered only if the transaction commits). Replicas listen
/// on that channel (`FeedChangeListener`) instead of polling.
public final class PostgresCountdownStore: CountdownStore {
    public let location: String
    public var keptExports: any KeptExports { PostgresKeptExports(store: self) }
    public let postgres: PostgresLocation
    let client: PostgresClient
    let clock: @Sendable () -> Date
    let logger: Logger
    /// Open once `run()` has begun.
    let running = RunGate()

    /// Makes the connection pool; nothing is sent until `run()` runs it, in a
    /// task the caller owns (`DatabaseLocation.withStore`), and `migrate()`
    /// brings the schema up to date.
    public init(_ postgres: PostgresLocation, clock: @escaping @Sendable () -> Date = { Date() },
                logger: Logger = Logger(label: "tminus.postgres")) {
        self.postgres = postgres
        self.clock = clock
        self.logger = logger
        location = postgres.description
        client = PostgresClient(configuration: postgres.configuration, backgroundLogger: logger)
    }

    /// Runs the connection pool until the task is cancelled. The caller owns
    /// that task, and so the pool's lifetime: no task of the store's own
    /// outlives it. Runs once.
    public func run() async {
        running.open()
        await client.run()
    }

    /// Brings the schema up to date (`PostgresMigrations`; two replicas
    /// starting at once take turns on an advisory lock); refuses a database
    /// a newer tminus migrated.
    /// `upTo` stops after that migration (tests of an upgrade build an older schema).
    public func migrate(upTo last: String? = nil) async throws {
        await running.wait()
        do { try await PostgresMigrations.migrate(client, upTo: last, logger: logger) } catch {
            throw Self.storeError(error, location: location)
        }
    }

    /// The pool stops with the task that runs it (`run()`).
    public func close() async throws {}

    /// The database answers, and the migrations applied, oldest first
    /// (`tminus migrate` prints them). The server keeps the data: nothing
    /// local can be lost under it.
    public func check(_ depth: StoreCheck.Depth) async throws -> StoreCheck {
        guard depth == .full else { return StoreCheck(problem: nil, migrations: nil) }
        let names = try await onConnection { connection in
            try await connection.query("SELECT name FROM schemaMigration", logger: self.logger).collect(String.self)
        }
        // In the order they are applied in ("v12" after "v9", which text order would not say).
        let order = Dictionary(uniqueKeysWithValues: PostgresMigrations.all.enumerated().map { ($1.name, $0) })
        return StoreCheck(problem: nil, migrations: names.sorted { (order[$0] ?? .max, $0) < (order[$1] ?? .max, $1) })
    }

    // MARK: running statements

    /// One transaction on a pooled connection. A refusal thrown inside
    /// (`StoreError`) rolls it back and comes out as it was; a lost or refused
    /// connection comes out as `StoreError.unavailable`.
    func inTransaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await leased { connection in
                try await connection.withTransaction(logger: self.logger) { connection in try await body(connection) }
            }
        } catch let error as PostgresTransactionError {
            // The use case's own refusal comes out as it was.
            if let refusal = error.closureError, !(refusal is PSQLError) { throw refusal }
            throw Self.storeError(error.closureError ?? error.beginError ?? error.commitError ?? error, location: location)
        } catch {
            throw Self.storeError(error, location: location)
        }
    }

    /// A use case's primitives in one transaction (`PostgresTransaction`).
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        let now = clock()
        return try await inTransaction { connection in try await body(PostgresTransaction(store: self, connection: connection, now: now)) }
    }

    /// Reads on a pooled connection, in one REPEATABLE READ snapshot.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) async throws -> T) async throws -> T {
        let now = clock()
        return try await inTransaction { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: self.logger)
            return try await body(PostgresTransaction(store: self, connection: connection, now: now, readOnly: true))
        }
    }

    /// Statements on a pooled connection (one, or several that need no snapshot).
    func onConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await leased(body)
        } catch {
            throw Self.storeError(error, location: location)
        }
    }

    /// How long a call waits for a connection before it gives up with "unavailable".
    static let leaseTimeout: Duration = .seconds(5)

    /// Runs `body` on a pooled connection, but waits at most `leaseTimeout` for
    /// one. The pool itself waits as long as it takes while the server is down,
    /// and a write must answer 503 instead of hanging; once `body` has its
    /// connection it runs to the end (a 20,000-event import takes longer).
    private func leased<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        await running.wait()
        let leased = Flag()
        let location = location
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await self.client.withConnection { connection in
                    leased.set()
                    return try await body(connection)
                }
            }
            group.addTask {
                try await Task.sleep(for: Self.leaseTimeout)
                guard leased.isSet else {
                    throw StoreError.unavailable("PostgreSQL at \(location) gave no connection within \(Self.leaseTimeout)")
                }
                return nil
            }
            while let result = try await group.next() {
                if let value = result {
                    group.cancelAll()
                    return value
                }
            }
            throw CancellationError()
        }
    }

    /// What callers see: our own refusals as they are, a unique-key race as a
    /// refusal, and anything about the connection as "unavailable" (503).
    static func storeError(_ error: any Error, location: String) -> any Error {
        if error is StoreError { return error }
        if let error = error as? PSQLError {
            if let state = error.serverInfo?[.sqlState] {
                if state == "23505" { return StoreError.invalid("that already exists (\(error.serverInfo?[.message] ?? "unique key"))") }
                if state.hasPrefix("53") || state.hasPrefix("57") || state.hasPrefix("08") {
                    return StoreError.unavailable("PostgreSQL at \(location): \(error.serverInfo?[.message] ?? "\(state)")")
                }
                return error
            }
            return StoreError.unavailable("PostgreSQL at \(location) cannot be reached (\(error.code))")
        }
        if error is CancellationError { return error }
        // The pool stops trying for a while after connections keep failing; its
        // error names only its own state (connectionCreationCircuitBreakerTripped).
        if String(describing: error).contains("CircuitBreaker") {
            return StoreError.unavailable("no connection to PostgreSQL at \(location) could be opened: is it running, and are the address, "
                                          + "user and database right?")
        }
        return StoreError.unavailable("PostgreSQL at \(location): \(error)")
    }
}

/// A flag set once, read from another task.
private final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

extension PostgresRowSequence {
    /// Every row's single column.
    func collect<T: PostgresDecodable & Sendable>(_ type: T.Type) async throws -> [T] {
        var values: [T] = []
        for try await value in self.decode(T.self) { values.append(value) }
        return values
    }

    /// Every row.
    func rows() async throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        for try await row in self { rows.append(row) }
        return rows
    }
}

extension PostgresCountdownStore {
    /// Every row of a table as PostgreSQL prints it, in a stable order: what
    /// tests compare to prove that a refused write changed nothing.
    public func rowsAsText(_ table: String) async throws -> [String] {
        guard table.allSatisfy({ $0.isLetter }) else { throw StoreError.invalid("not a table name: \(table)") }
        return try await onConnection { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "SELECT (t.*)::text FROM \(table) t ORDER BY 1"), logger: self.logger)
                .collect(String.self)
        }
    }
}
