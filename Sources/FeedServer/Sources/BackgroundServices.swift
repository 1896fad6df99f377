import CountdownStore
import Foundation
import NIOPosix
import Logging
import ServiceLifecycle
import UnixSignals

/// Fetches URL sources when they are due, until the server shuts down.
struct SourceRefreshService: Service {
    let loader: FeedLoader
    let catalog: FeedCatalog
    let clock: @Sendable () -> Date

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            if await loader.refreshDueSources(now: clock()) > 0 { await catalog.refresh() }
            // Wake at once on shutdown instead of finishing the nap.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(30)) }
        }
    }
}

/// `kill -HUP` reloads `feeds/` without a restart.
struct ReloadOnHangupService: Service {
    let loader: FeedLoader
    let catalog: FeedCatalog
    let logger: Logger

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            logger.notice("SIGHUP: reloading feed definitions")
            try? await NIOThreadPool.singleton.runIfActive { loader.reload() }
            await catalog.refresh(force: true)
        }
    }
}

/// Keeps the compiled feeds in step with the store once a second: one small
/// query for the feeds' revisions (and the live tokens), never one per request.
/// That is how a `tminus import` by another process reaches a running server.
/// Now and then it also saves token uses and refreshes what `/healthz` shows.
struct CatalogPollService: Service {
    let catalog: FeedCatalog
    let health: HealthMonitor
    let store: CountdownStore
    var interval: Duration = .seconds(1)

    func run() async throws {
        var tick = 1
        // The catalog was compiled before the server started listening: wait first.
        while (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: interval) })) != nil,
              !Task.isCancelled, !Task.isShuttingDownGracefully {
            await catalog.refresh()
            if tick % 5 == 0, let sources = try? await store.async({ try $0.sources() }) { health.update(sources: sources) }
            if tick % 60 == 0 {
                await catalog.saveTokenUses()
                if let check = try? await store.async({ try $0.integrityCheckQuick() }) { health.update(database: check) }
                HeapTrim.now()   // what closed connections and finished requests freed goes back to the system
            }
            tick += 1
        }
        await catalog.saveTokenUses()
    }
}

/// Ends the process when a graceful shutdown takes longer than `limit`. Work
/// in flight is bounded (expansion budgets, fetch deadlines), but a stop must
/// not depend on that: SIGTERM once waited for a render that never ended,
/// until SIGKILL. Store writes are transactions, so exiting mid-write loses
/// nothing that was committed and leaves nothing half-written.
struct ShutdownDeadline: Service {
    let limit: Duration
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()   // returns when the shutdown begins
        let (limit, logger) = (limit, logger)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18)
            logger.error("graceful shutdown took longer than \(limit); exiting with work still in flight")
            _exit(1)
        }
    }
}
