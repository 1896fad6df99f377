@testable import Catalog
import CountdownStore
@testable import FeedServer
import Foundation
import HTTPSupport
import Hummingbird
import HummingbirdTesting
import Logging
import SQLiteStore
import Synchronization
import TestSupport
import TminusServer

/// A whole server (the application `tminus serve` runs), with feed definitions
/// written by the test and a clock the test controls. By default requests go
/// straight to the router, no background service runs (`buildRouter` alone)
/// and the store is in memory: fast, and enough for what routes, pages and
/// the web app do. A live server runs its background services too.
/// Tests of what needs a socket (timeouts, connection limits, clients in other
/// processes) ask for `.live`; tests of what a file holds ask for `.sqlite`.
package final class ServerFixture: Sendable {
    package enum Transport: Sendable { case router, live }
    package enum Backend: Sendable { case memory, sqlite }

    package let directory: URL
    package let feeds: URL
    package let adminToken = "test-admin-token-0123456789"
    package let transport: Transport
    package let backend: Backend
    private let now: Mutex<Date>

    package init(now: Date = Date(timeIntervalSince1970: 1_795_338_000),   // 2026-11-22T09:00:00Z, a Sunday
         transport: Transport = .router, backend: Backend = .memory) throws {
        self.transport = transport
        self.backend = backend
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-server-\(UUID().uuidString)")
        feeds = directory.appendingPathComponent("feeds")
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        try Data(adminToken.utf8).write(to: directory.appendingPathComponent("admin-token"))
        self.now = Mutex(now)
    }

    package var clockNow: Date { now.withLock { $0 } }
    package func setClock(_ date: Date) { now.withLock { $0 = date } }

    /// Writes a calendar and a feed definition that imports it.
    package func feed(_ slug: String, calendar: String, yaml extra: String = "") throws {
        let ics = directory.appendingPathComponent("\(slug).ics")
        try Data(calendar.utf8).write(to: ics)
        try Data("""
            name: \(slug.capitalized)
            \(extra)
            sources:
              - file: ../\(slug).ics

            """.utf8).write(to: feeds.appendingPathComponent("\(slug).yaml"))
    }

    package var databasePath: String { directory.appendingPathComponent("tminus.sqlite").path }

    package var configuration: ServerConfiguration {
        ServerConfiguration(host: "127.0.0.1", port: 0, database: backend == .sqlite ? .sqlite(path: databasePath) : .memory,
                            feedsDirectory: feeds.path, adminTokenFile: directory.appendingPathComponent("admin-token").path,
                            baseURL: "http://127.0.0.1:8080", refreshSources: false, clock: { [self] in self.clockNow })
            .allowingPrivateSources()   // the tests' URL sources are servers on loopback
            .keepingConnectionsForTests()
    }

    package func withServer<T: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        var logger = Logger(label: "tminus-test")
        logger.logLevel = .warning
        return try await configuration.database.withStore(clock: configuration.clock) { store in
            let server = try await buildServer(configuration, store: store, logger: logger, withBackgroundServices: transport == .live)
            return try await server.application.test(testingSetup) { client in try await body(client) }
        }
    }

    /// The store, catalog and render cache of a running server, for tests that look inside.
    package struct Parts: Sendable {
        package var store: any CountdownStore
        package var catalog: FeedCatalog
        package var cache: RenderCache
        package var metrics: ServerMetrics
        package var renderer: FeedRenderer
        /// Every part, for a test that runs a background service's work itself (`catalogPoll(_:).tick`).
        package var dependencies: ServerDependencies
        /// The store as SQLite, for tests of what only SQLite has (statement counts, a full disk).
        package var sqlite: SQLiteCountdownStore { store as! SQLiteCountdownStore }
    }

    /// A live server built from `configuration` after `adjust`, with its parts.
    package func withServer<T: Sendable>(adjust: (inout ServerConfiguration) -> Void,
                                 _ body: @Sendable (any TestClientProtocol, Parts) async throws -> T) async throws -> T {
        var logger = Logger(label: "tminus-test")
        logger.logLevel = .warning
        var configuration = self.configuration
        adjust(&configuration)
        return try await configuration.database.withStore(clock: configuration.clock) { store in
            let server = try await buildServer(configuration, store: store, logger: logger, withBackgroundServices: transport == .live)
            let parts = Parts(store: server.store, catalog: server.catalog, cache: server.cache, metrics: server.metrics, renderer: server.renderer,
                              dependencies: server.dependencies)
            return try await server.application.test(testingSetup) { client in try await body(client, parts) }
        }
    }

    private var testingSetup: TestingSetup { transport == .live ? .live : .router }

    package var admin: HTTPFields { [.authorization: "Bearer \(adminToken)"] }

    package static let family = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//tminus tests//server//EN\r
        BEGIN:VEVENT\r
        UID:xmas@server.test\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:🎄 Christmas\r
        DTSTART;VALUE=DATE:20001225\r
        RRULE:FREQ=YEARLY\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:standup@server.test\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Standup\r
        DTSTART;TZID=Europe/Berlin:20261102T093000\r
        DTEND;TZID=Europe/Berlin:20261102T094500\r
        RRULE:FREQ=WEEKLY;BYDAY=MO,WE\r
        EXDATE;TZID=Europe/Berlin:20261125T093000\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-PT10M\r
        DESCRIPTION:Standup\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:trip@server.test\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Trip\r
        DTSTART;VALUE=DATE:20261201\r
        DTEND;VALUE=DATE:20261204\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
}

extension TestClientProtocol {
    package func text(_ uri: String, headers: HTTPFields = [:]) async throws -> (TestResponse, String) {
        let response = try await execute(uri: uri, method: .get, headers: headers)
        return (response, String(buffer: response.body))
    }
}

extension ServerConfiguration {
    /// Connections that idle or wait for a head up to 10 minutes: a test's client keeps one connection
    /// between its requests, and on a loaded machine a starved test can leave it idle past the 30 s
    /// default (the server closed it, and the next request failed with "I/O on closed channel").
    /// Tests of the deadlines themselves set theirs in `adjust`.
    package func keepingConnectionsForTests() -> ServerConfiguration {
        var configuration = self
        configuration.connections.idleTimeout = .seconds(600)
        configuration.connections.requestHeadTimeout = .seconds(600)
        return configuration
    }
}
