import Countdowns
import Foundation
import Logging
import ServiceLifecycle
import Services

/// Rolls every running focus session forward, every `interval` (issue #42):
/// a study or break that ended is kept in its person's focus feed, and a
/// Pomodoro moves on, though nobody has the page open; the feed's change then
/// reaches its notices as any change does.
package struct FocusRoundService: Service {
    package let service: CountdownService
    package let logger: Logger
    package let interval: Duration
    /// What it waits on between rounds.
    package var waitClock: any Clock<Duration> = ContinuousClock()

    package init(service: CountdownService, logger: Logger, interval: Duration = .seconds(15)) {
        self.service = service
        self.logger = logger
        self.interval = interval
    }

    package func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do { try await service.acting(as: .system).focusRound() } catch {
                logger.warning("focus round failed; trying again at the next", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { [clock = waitClock, interval] in try await clock.sleep(for: interval) }
        }
    }
}


/// Places countdowns in their feeds' lists (`CountdownService.placeCountdowns`,
/// issue #41) at start, which fills in rows kept before 0.14, and then every
/// `interval` (an hour), which tightens those of repeats whose shown
/// occurrence is over. Every replica runs it: a place is a lower bound, two
/// rounds write the same one, and a late one only widens a first page's read.
package struct PlaceRoundService: Service {
    package let service: CountdownService
    package let logger: Logger
    package let interval: Duration
    /// What it waits on between rounds.
    package var waitClock: any Clock<Duration> = ContinuousClock()

    package init(service: CountdownService, logger: Logger, interval: Duration = .seconds(3_600)) {
        self.service = service
        self.logger = logger
        self.interval = interval
    }

    package func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let started = ContinuousClock.now
            do {
                let placed = try await service.acting(as: .system).placeCountdowns()
                if placed > 0 {
                    logger.info("countdowns placed in their feeds' lists", metadata: ["countdowns": "\(placed)", "duration": "\(ContinuousClock.now - started)"])
                }
            } catch {
                logger.warning("place round failed; trying again at the next", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { [clock = waitClock, interval] in try await clock.sleep(for: interval) }
        }
    }
}
