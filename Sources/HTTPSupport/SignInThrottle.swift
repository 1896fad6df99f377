import Foundation
import Synchronization

/// Slows down password guessing: each client may try `limit` sign-ins within
/// `window`; after that it is refused (429, with Retry-After) until the oldest
/// attempt is older than the window. An attempt counts the moment it arrives,
/// before its password is checked, so 60 guesses sent at once get 5 checks,
/// not 60 (issue #27: failures were counted after bcrypt, and every parallel
/// guess had already passed the check). A correct password clears the count.
/// The owner, from another address, is not affected. Memory is bounded: at
/// most `maxClients` are tracked, and the stalest are forgotten first.
package final class SignInThrottle: Sendable {
    package let limit: Int
    package let window: TimeInterval
    package let maxClients: Int
    private let attempts = Mutex<[String: [Date]]>([:])

    package init(limit: Int = 5, window: TimeInterval = 60, maxClients: Int = 10_000) {
        self.limit = limit
        self.window = window
        self.maxClients = maxClients
    }

    /// Counts an attempt by `client` and returns nil when it may go on, or the
    /// seconds it must wait (the attempt is then not counted).
    package func admit(client: String, now: Date) -> Int? {
        attempts.withLock { all in
            let recent = (all[client] ?? []).filter { now.timeIntervalSince($0) < window }
            if recent.count >= limit, let oldest = recent.first {
                all[client] = recent
                return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
            }
            if recent.isEmpty, all[client] == nil, all.count >= maxClients {
                // Forget the clients whose last attempt is oldest.
                let stalest = all.sorted { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) }.prefix(maxClients / 10 + 1)
                for (key, _) in stalest { all[key] = nil }
            }
            all[client] = recent + [now]
            return nil
        }
    }

    /// The seconds `client` must wait, without counting an attempt: what a
    /// request that carries its password every time (a calendar app's HTTP
    /// Basic) asks first, counting only its failures (`admit`).
    package func waitTime(client: String, now: Date) -> Int? {
        attempts.withLock { all in
            let recent = (all[client] ?? []).filter { now.timeIntervalSince($0) < window }
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
        }
    }

    package func recordSuccess(client: String) {
        _ = attempts.withLock { $0.removeValue(forKey: client) }
    }
}
