import Foundation
import Synchronization

/// Slows down password guessing: after `limit` failed sign-ins from one client
/// within `window`, that client is refused (429, with Retry-After) until the
/// oldest of them is older than the window. The owner, from another address,
/// is not affected. Memory is bounded: at most `maxClients` are tracked, and
/// the stalest are forgotten first.
final class SignInThrottle: Sendable {
    let limit: Int
    let window: TimeInterval
    let maxClients: Int
    private let failures = Mutex<[String: [Date]]>([:])

    init(limit: Int = 5, window: TimeInterval = 60, maxClients: Int = 10_000) {
        self.limit = limit
        self.window = window
        self.maxClients = maxClients
    }

    /// Seconds the client must wait before it may try again, or nil when it may try now.
    func retryAfter(client: String, now: Date) -> Int? {
        failures.withLock { all in
            let recent = (all[client] ?? []).filter { now.timeIntervalSince($0) < window }
            all[client] = recent.isEmpty ? nil : recent
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
        }
    }

    func recordFailure(client: String, now: Date) {
        failures.withLock { all in
            if all[client] == nil, all.count >= maxClients {
                // Forget the clients whose last failure is oldest.
                let stalest = all.sorted { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) }.prefix(maxClients / 10 + 1)
                for (key, _) in stalest { all[key] = nil }
            }
            all[client, default: []].append(now)
            if all[client]!.count > limit { all[client]!.removeFirst(all[client]!.count - limit) }
        }
    }

    func recordSuccess(client: String) {
        _ = failures.withLock { $0.removeValue(forKey: client) }
    }
}
