import SQLiteStore
import Foundation
import GRDB
import Logging
import PostgresNIO
import PostgresStore
import Services
import Synchronization
import Testing
import TestSupport
@testable import CountdownStore

/// A clock tests move by hand, so that "now" is the same for the store and the assertions.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    func set(_ date: Date) { current.withLock { $0 = date } }
}

/// The stores the shared store suite runs against: SQLite always; PostgreSQL
/// when `TMINUS_TEST_POSTGRES` names a server where tests may create databases
/// (`make test-postgres` starts a throwaway cluster and sets it).
enum StoreBackend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres, memory

    /// Every store the primitives are implemented on: SQLite and in memory
    /// always, PostgreSQL when `make test-postgres` started one.
    static var available: [StoreBackend] { TestPostgres.url == nil ? [.sqlite, .memory] : [.sqlite, .memory, .postgres] }
    var testDescription: String { rawValue }
}

enum TestPostgres {
    /// e.g. postgres://tminus@/postgres?host=/tmp/tminus-pg.X&port=54321
    static var url: String? { ProcessInfo.processInfo.environment["TMINUS_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 } }

    /// A new, empty database on the test server; returns its URL.
    static func freshDatabase() async throws -> String {
        let admin = try PostgresLocation(try #require(url))
        let name = "tminus_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let client = PostgresClient(configuration: admin.configurationForTests, backgroundLogger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
            group.cancelAll()
        }
        var location = admin
        location.database = String(name)
        return location.urlForTests
    }

    /// Runs statements on the database at `url`, one after another.
    static func run(_ statements: [String], on url: String) async throws {
        let client = PostgresClient(configuration: try PostgresLocation(url).configurationForTests, backgroundLogger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            for statement in statements { try await client.query(PostgresQuery(unsafeSQL: statement)) }
            group.cancelAll()
        }
    }
}

/// A store on a real SQLite file, or a fresh PostgreSQL database, in a fresh temporary folder.
struct TemporaryStore {
    let backend: StoreBackend
    let directory: URL
    let clock: TestClock
    let store: any CountdownStore
    var limits = StoreLimits()

    /// The use cases over this store, with its limits and clock.
    var service: CountdownService { CountdownService(store: store, limits: limits, clock: { [clock] in clock.now }) }

    static func make(_ backend: StoreBackend = .sqlite, limits: StoreLimits = StoreLimits()) async throws -> TemporaryStore {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let clock = TestClock()
        let store: any CountdownStore
        switch backend {
        case .sqlite:
            store = try SQLiteCountdownStore(path: directory.appendingPathComponent("tminus.sqlite").path, clock: { clock.now })
        case .postgres:
            // The pool runs for the rest of the test process (the server and the CLI
            // scope it with `DatabaseLocation.withStore`; a test's store outlives `make`).
            let postgres = PostgresCountdownStore(try PostgresLocation(try await TestPostgres.freshDatabase()), clock: { clock.now })
            Task { await postgres.run() }
            try await postgres.migrate()
            store = postgres
        case .memory:
            store = InMemoryCountdownStore(clock: { clock.now })
        }
        return TemporaryStore(backend: backend, directory: directory, clock: clock, store: store, limits: limits)
    }

    /// The SQLite file (SQLite only).
    var path: String { (store as! SQLiteCountdownStore).path }

    /// Every row of every table, as text: equal dumps mean an unchanged database.
    func dump() async throws -> String {
        let tables = ["feed", "source", "countdown", "category", "countdownCategory", "image"]
        if let sqlite = store as? SQLiteCountdownStore {
            return try await sqlite.pool.read { db in
                var out = ""
                for table in tables {
                    for row in try GRDBRows.all(db, table) { out += "\(table): \(row)\n" }
                }
                return out
            }
        }
        if let memory = store as? InMemoryCountdownStore { return memory.tables.withLock { $0.sortedForComparison.joined(separator: "\n") + "\n" } }
        let postgres = store as! PostgresCountdownStore
        var out = ""
        for table in tables {
            for row in try await postgres.rowsAsText(table) { out += "\(table): \(row)\n" }
        }
        return out
    }

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Corpus.packageRoot.appendingPathComponent("Tests/CountdownStoreTests/Fixtures/\(name)"))
    }
}

extension InMemoryTables {
    /// Every table's rows in key order, so that equal tables print alike.
    var sortedForComparison: [String] {
        func rows<Key: Comparable, Value>(_ name: String, _ table: [Key: Value]) -> [String] {
            table.sorted { $0.key < $1.key }.map { "\(name): \($0.key) \($0.value)" }
        }
        return rows("feed", feeds) + rows("countdown", countdowns) + rows("category", categories)
            + rows("link", links.mapValues { $0.sorted() }) + rows("source", sources) + rows("image", images.mapValues { ($0.mimeType, $0.bytes) })
    }
}

/// A store of an older schema: migrated up to `version`, given rows by
/// `statements` as that version's code wrote them, then opened (and so
/// migrated to today's) on SQLite or PostgreSQL. The upgrade tests start here.
enum OlderStore {
    static func upgraded(_ backend: StoreBackend, from version: String, rows statements: [String]) async throws -> any CountdownStore {
        switch backend {
        case .postgres:
            let url = try await TestPostgres.freshDatabase()
            let postgres = PostgresCountdownStore(try PostgresLocation(url))
            Task { await postgres.run() }
            try await postgres.migrate(upTo: version)
            try await TestPostgres.run(statements, on: url)
            try await postgres.migrate()
            return postgres
        default:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-older-\(UUID().uuidString).sqlite").path
            let queue = try DatabaseQueue(path: path)
            try StoreMigrations.migrator.migrate(queue, upTo: version)
            try await queue.write { db in for statement in statements { try db.execute(sql: statement) } }
            try queue.close()
            return try SQLiteCountdownStore(path: path)
        }
    }
}
