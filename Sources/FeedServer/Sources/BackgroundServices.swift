import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// Fetches URL sources when they are due, until the server shuts down.
struct SourceRefreshService: Service {
    let loader: FeedLoader
    let clock: @Sendable () -> Date

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            await loader.refreshDueSources(now: clock())
            // Wake at once on shutdown instead of finishing the nap.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(30)) }
        }
    }
}

/// `kill -HUP` reloads `feeds/` without a restart.
struct ReloadOnHangupService: Service {
    let loader: FeedLoader
    let logger: Logger

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            logger.notice("SIGHUP: reloading feed definitions")
            loader.reload()
        }
    }
}
