import Catalog
import CountdownStore
import Foundation
import Logging
import Notices
import ServiceLifecycle
import Services
import Subscriptions
import UnixSignals

/// Fetches URL sources when they are due, until the server shuts down.
package struct SourceRefreshService: Service {
    package let loader: FeedLoader
    package let catalog: FeedCatalog
    package let clock: @Sendable () -> Date
    /// What it waits on between rounds.
    package var waitClock: any Clock<Duration> = ContinuousClock()

    package init(loader: FeedLoader, catalog: FeedCatalog, clock: @escaping @Sendable () -> Date) {
        self.loader = loader
        self.catalog = catalog
        self.clock = clock
    }

    package func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            if await loader.refreshDueSources(now: clock()) > 0 { await catalog.refresh() }
            // Wake at once on shutdown instead of finishing the nap.
            try? await cancelWhenGracefulShutdown { [clock = waitClock] in try await clock.sleep(for: .seconds(30)) }
        }
    }
}

/// `kill -HUP` reloads `feeds/` without a restart.
package struct ReloadOnHangupService: Service {
    package let loader: FeedLoader
    package let catalog: FeedCatalog
    package let logger: Logger

    package init(loader: FeedLoader, catalog: FeedCatalog, logger: Logger) {
        self.loader = loader
        self.catalog = catalog
        self.logger = logger
    }

    package func run() async throws {
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
package struct CatalogPollService: Service {
    package let catalog: FeedCatalog
    package let health: HealthMonitor
    package let store: any CountdownStore
    package var interval: Duration = .seconds(1)
    /// What it waits on between ticks.
    package var waitClock: any Clock<Duration> = ContinuousClock()

    package init(catalog: FeedCatalog, health: HealthMonitor, store: any CountdownStore, interval: Duration = .seconds(1)) {
        self.catalog = catalog
        self.health = health
        self.store = store
        self.interval = interval
    }
    package var revisionTicks = 1

    package func run() async throws {
        var tick = 1
        // The catalog was read before the server started listening: wait first.
        while (try? await cancelWhenGracefulShutdown({ [clock = waitClock, interval] in try await clock.sleep(for: interval) })) != nil,
              !Task.isCancelled, !Task.isShuttingDownGracefully {
            await self.tick(tick)
            tick += 1
        }
        await catalog.saveTokenUses()
    }

    /// One tick's work (the `number`th since the start); a test calls it instead of waiting for one.
    package func tick(_ number: Int) async {
        // What another process changed (the command line, a replica) reaches the permission check within a tick.
        catalog.service.access.forget(unlessStoreIsAt: try? await store.changeStamp())
        if number % revisionTicks == 0 { await catalog.refresh() }
        if number % 5 == 0, let sources = try? await store.sources() { health.update(sources: sources) }
        if number % 3600 == 0 {
            // Calendar apps' sync reads the change log; it keeps 90 days.
            do { try await catalog.service.acting(as: .system).pruneChangeLog() }
            catch { catalog.logger.warning("cannot forget the change log's changes older than 90 days", metadata: ["error": "\(error)"]) }
        }
        if number % 60 == 0 {
            await catalog.saveTokenUses()
            HeapTrim.now()   // what closed connections and finished requests freed goes back to the system
        }
        // Every tick, cheaply: a deleted database file answers queries as if nothing happened.
        let deep = number % 60 == 0 || health.databaseHadAProblem
        if let check = try? await store.check(deep ? .full : .cheap), check.problem != nil || deep {
            health.update(database: check.problem ?? "ok")
        }
    }
}

/// PostgreSQL: reads a feed's row again when another replica (or this one)
/// changed it (the stale compilation is dropped; the next read compiles),
/// as the store's NOTIFY says, and compares every revision again whenever the
/// listening connection comes back, since what was sent meanwhile is lost.
package struct FeedChangeService: Service {
    package let notices: any FeedChangeNotices
    package let catalog: FeedCatalog
    package let logger: Logger

    package init(notices: any FeedChangeNotices, catalog: FeedCatalog, logger: Logger) {
        self.notices = notices
        self.catalog = catalog
        self.logger = logger
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            await notices.listenForFeedChanges(retry: .seconds(1), connected: { await catalog.refresh() }, changed: { change in
                logger.debug("feed changed", metadata: ["feed": "\(change.slug)", "revision": "\(change.revision)"])
                let known = catalog.stored(slug: change.slug)
                if known?.revision != change.revision || (change.ownerKnown && known?.owner != change.owner) { await catalog.refresh() }
            })
        }
    }
}

/// Ends the process when a graceful shutdown takes longer than `limit`. Work
/// in flight is bounded (expansion budgets, fetch deadlines), but a stop must
/// not depend on that: SIGTERM once waited for a render that never ended,
/// until SIGKILL. Store writes are transactions, so exiting mid-write loses
/// nothing that was committed and leaves nothing half-written.
package struct ShutdownDeadline: Service {
    package let limit: Duration
    package let logger: Logger

    package init(limit: Duration, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    package func run() async throws {
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
package struct NoticeService: Service {
    package let watcher: NoticeWatcher
    package let interval: Duration
    /// What it waits on between ticks.
    package var waitClock: any Clock<Duration> = ContinuousClock()

    package init(watcher: NoticeWatcher, interval: Duration) {
        self.watcher = watcher
        self.interval = interval
    }

    package func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            await watcher.tick()
            try? await cancelWhenGracefulShutdown { [clock = waitClock, interval] in try await clock.sleep(for: interval) }
        }
        watcher.stop()
    }
}
