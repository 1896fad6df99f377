import Foundation
import Logging
import ServiceLifecycle
import Services

/// A use case the server runs by itself every `interval`, from its start
/// until it shuts down; a round that fails is logged and tried again at the
/// next. The rounds are the two below.
package struct RoundService: Service {
    /// What the log calls it ("focus round").
    package let name: String
    package let interval: Duration
    package let logger: Logger
    /// What it waits on between rounds.
    package var waitClock: any Clock<Duration> = ContinuousClock()
    private let round: @Sendable () async throws -> Void

    package init(_ name: String, every interval: Duration, logger: Logger, round: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.interval = interval
        self.logger = logger
        self.round = round
    }

    package func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do { try await round() } catch {
                logger.warning("\(name) failed; trying again at the next", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { [clock = waitClock, interval] in try await clock.sleep(for: interval) }
        }
    }

    /// Rolls every running focus session forward every 15 seconds (issue #42):
    /// a study or break that ended is kept in its person's focus feed, and a
    /// Pomodoro moves on, though nobody has the page open; the feed's change
    /// then reaches its notices as any change does.
    package static func focus(_ service: CountdownService, logger: Logger) -> RoundService {
        RoundService("focus round", every: .seconds(15), logger: logger) { try await service.acting(as: .system).focusRound() }
    }

    /// Places countdowns in their feeds' lists (`CountdownService.placeCountdowns`,
    /// issue #41) at start, which fills in rows kept before 0.14, and then
    /// hourly, which tightens those of repeats whose shown occurrence is over.
    /// Every replica runs it: a place is
    /// a lower bound, two rounds write the same one, and a late one only
    /// widens a first page's read.
    package static func places(_ service: CountdownService, logger: Logger) -> RoundService {
        RoundService("place round", every: .seconds(3_600), logger: logger) {
            let started = ContinuousClock.now
            let placed = try await service.acting(as: .system).placeCountdowns()
            if placed > 0 {
                logger.info("countdowns placed in their feeds' lists", metadata: ["countdowns": "\(placed)", "duration": "\(ContinuousClock.now - started)"])
            }
        }
    }
}
