import Logging
import ServiceLifecycle
import Services
import Synchronization

/// Says once in the log, after people exist, that the admin token used for
/// feeds belongs to operations and scripts should move to people's tokens.
///
/// Whether people exist is a store read, so it never runs in the request's
/// path: a request only hands its path over (`used(for:)`, at most once a
/// minute), and the check runs here, beside the routes. With the database
/// down, a request through the admin token once waited for that read's
/// connection timeout before its own.
package final class AdminTokenNotice: Service, Sendable {
    private let state = Mutex<(warned: Bool, checked: ContinuousClock.Instant?)>((false, nil))
    private let people: CountdownService
    private let logger: Logger
    private let paths: AsyncStream<String>
    private let handOver: AsyncStream<String>.Continuation

    package init(people: CountdownService, logger: Logger) {
        self.people = people.acting(as: .system)
        self.logger = logger
        (paths, handOver) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Called when the admin token was used for `path`; returns at once.
    package func used(for path: String) {
        guard !path.hasPrefix("/api/health") else { return }
        let now = ContinuousClock.now
        let due = state.withLock { state -> Bool in
            guard !state.warned, state.checked.map({ now - $0 >= .seconds(60) }) ?? true else { return false }
            state.checked = now
            return true
        }
        if due { handOver.yield(path) }
    }

    /// Ends `run()` once what was handed over is checked (the server's shutdown does too).
    package func finish() { handOver.finish() }

    package func run() async throws {
        for await path in paths.cancelOnGracefulShutdown() { await check(path) }
    }

    private func check(_ path: String) async {
        guard let someone = try? await people.people().first else { return }
        guard state.withLock({ state -> Bool in defer { state.warned = true }; return !state.warned }) else { return }
        logger.warning("""
            the admin token was used for \(path): it keeps working as the first administrator, but people now have their own tokens \
            (`tminus users token \(someone.login) --label NAME`); keep the admin token for operations (health, metrics, people, backups)
            """)
    }
}
