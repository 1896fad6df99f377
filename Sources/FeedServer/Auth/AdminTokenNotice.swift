import Logging
import Services
import Synchronization

/// Once people have their own API tokens, a script still sending the admin
/// token for feeds and countdowns keeps working, as the first administrator,
/// and the log says once that it should move to a person's token (the admin
/// token is meant for operations: health, metrics, people, backups). Whether
/// anyone exists is asked at most once a minute, never on every request.
package final class AdminTokenNotice: Sendable {
    private let state = Mutex<(warned: Bool, checked: ContinuousClock.Instant?)>((false, nil))
    private let people: CountdownService
    private let logger: Logger

    package init(people: CountdownService, logger: Logger) {
        self.people = people.acting(as: .system)
        self.logger = logger
    }

    /// Called when the admin token was used for `path`.
    package func used(for path: String) async {
        guard !path.hasPrefix("/api/health") else { return }
        let now = ContinuousClock.now
        let due = state.withLock { state -> Bool in
            guard !state.warned, state.checked.map({ now - $0 >= .seconds(60) }) ?? true else { return false }
            state.checked = now
            return true
        }
        guard due, let someone = try? await people.people().first else { return }
        guard state.withLock({ state -> Bool in defer { state.warned = true }; return !state.warned }) else { return }
        logger.warning("""
            the admin token was used for \(path): it keeps working as the first administrator, but people now have their own tokens \
            (`tminus users token \(someone.login) --label NAME`); keep the admin token for operations (health, metrics, people, backups)
            """)
    }
}
