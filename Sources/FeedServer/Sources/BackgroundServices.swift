import CountdownStore
import Foundation
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
            await loader.reload()
            await catalog.refresh(force: true)
        }
    }
}

/// Keeps the compiled feeds in step with the store: one small query for the
/// feeds' revisions (and the live tokens) every `revisionTicks` ticks, never one
/// per request. On SQLite that is every second, and how a `tminus import` by
/// another process reaches a running server; on PostgreSQL, NOTIFY does that
/// (`FeedChangeService`) and this is only a safety net. Every minute it also
/// saves token uses, and every five ticks it refreshes what `/healthz` shows.
struct CatalogPollService: Service {
    let catalog: FeedCatalog
    let health: HealthMonitor
    let store: any CountdownStore
    var interval: Duration = .seconds(1)
    var revisionTicks = 1

    func run() async throws {
        var tick = 1
        // The catalog was read before the server started listening: wait first.
        while (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: interval) })) != nil,
              !Task.isCancelled, !Task.isShuttingDownGracefully {
            if tick % revisionTicks == 0 { await catalog.refresh() }
            if tick % 5 == 0, let sources = try? await store.sources() { health.update(sources: sources) }
            if tick % 60 == 0 {
                await catalog.saveTokenUses()
                HeapTrim.now()   // what closed connections and finished requests freed goes back to the system
            }
            if let problem = store.storageProblem {
                // Every tick: a deleted database file answers queries as if nothing happened.
                health.update(database: problem)
            } else if tick % 60 == 0 || health.databaseHadAProblem {
                if let check = try? await store.quickCheck() { health.update(database: check) }
            }
            tick += 1
        }
        await catalog.saveTokenUses()
    }
}

/// PostgreSQL: reads a feed's row again when another replica (or this one)
/// changed it (the stale compilation is dropped; the next read compiles),
/// as the store's NOTIFY says, and compares every revision again whenever the
/// listening connection comes back, since what was sent meanwhile is lost.
struct FeedChangeService: Service {
    let notices: any FeedChangeNotices
    let catalog: FeedCatalog
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await notices.listenForFeedChanges(retry: .seconds(1), connected: { await catalog.refresh() }, changed: { change in
                logger.debug("feed changed", metadata: ["feed": "\(change.slug)", "revision": "\(change.revision)"])
                if catalog.stored(slug: change.slug)?.revision != change.revision { await catalog.refresh() }
            })
        }
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

/// Looks for notices to send (`NoticeWatcher`) every `interval`: feeds that
/// changed, days that began, brokers to bring in step.
struct NoticeService: Service {
    let watcher: NoticeWatcher
    let interval: Duration

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            await watcher.tick()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
        watcher.stop()
    }
}
