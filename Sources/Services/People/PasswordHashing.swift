import CountdownStore
import Foundation
import HummingbirdBcrypt
import Synchronization

/// Where bcrypt runs: one thread of its own, one check at a time, with a
/// bounded line. bcrypt takes a quarter of a second on purpose; on the shared
/// pool, 60 parallel sign-ins took every thread and a database request waited
/// 4.8 s (issue #27). Here they queue behind each other and leave the other
/// core to serving and SQLite; past `maxWaiting` a sign-in is told to try
/// again rather than queue for ever.
///
/// The line is the service's (`CountdownService.passwords`, one per server:
/// its sign-ins all come through one service), the thread the process's: two
/// servers in one process (the tests run hundreds) wait for each other's
/// checks but never fill each other's line.
package final class PasswordHashing: Sendable {
    package static let maxWaiting = 32
    /// Checks one client may have waiting at once: a fair share of the queue.
    package static let maxWaitingPerClient = 2
    /// Its own thread, never one of libdispatch's (which Swift's tasks share).
    private static let pool = WorkerPool(name: "tminus-bcrypt", threads: 1)
    package let waiting: FairAdmission

    package init(maxWaiting: Int = PasswordHashing.maxWaiting, perClient: Int = PasswordHashing.maxWaitingPerClient) {
        waiting = FairAdmission(total: maxWaiting, perClient: perClient)
    }

    /// The queue is full, or this client has its share in it: answered 503 with `retryAfter`.
    package struct Busy: Error, CustomStringConvertible {
        package var retryAfter: Int { 2 }
        package var description: String { "too many sign-ins at once; try again in a few seconds" }
    }

    /// Whose checks these are, for their share of the queue: a signed-in
    /// person checking their current password, or nil (sign-ins, whose
    /// addresses the sign-in throttle already counts as they arrive, and work
    /// no client asked for). Not an address: behind a proxy without
    /// `--trust-forwarded-for` every client has the same one.
    package func hash(_ password: String, cost: UInt8, client: String? = nil) async throws -> String {
        let hash = try await run(client) { Bcrypt.hash(password, cost: cost) }
        Self.noteCost(of: hash)
        return hash
    }

    package func verify(_ password: String, hash: String, client: String? = nil) async throws -> Bool {
        Self.noteCost(of: hash)
        return try await run(client) { Bcrypt.verify(password, hash: hash) }
    }

    /// Spends what a check of the people's hashes costs, on a hash of no
    /// one's password: a sign-in with an unknown login takes as long as one
    /// with a wrong password. Its cost is the last one seen in a real hash.
    package func spendACheck(_ password: String, client: String? = nil) async throws {
        let cost = Self.lastCost.withLock { $0 }
        let hash: String
        if let made = Self.noOnesHashes.withLock({ $0[cost] }) { hash = made } else {
            hash = try await run(client) { Bcrypt.hash(Secret.generate(bytes: 16), cost: cost) }
            Self.noOnesHashes.withLock { $0[cost] = hash }
        }
        _ = try await run(client) { Bcrypt.verify(password, hash: hash) }
    }

    /// "$2b$12$…" → 12.
    private static func noteCost(of hash: String) {
        let parts = hash.split(separator: "$")
        guard parts.count >= 2, let cost = UInt8(parts[1]), (4...31).contains(cost) else { return }
        Self.lastCost.withLock { $0 = cost }
    }

    private static let lastCost = Mutex<UInt8>(PasswordPolicy.cost)
    private static let noOnesHashes = Mutex<[UInt8: String]>([:])

    private func run<T: Sendable>(_ client: String?, _ work: @escaping @Sendable () -> T) async throws -> T {
        guard waiting.enter(client) else { throw Busy() }
        defer { waiting.leave(client) }
        return try await Self.pool.run { work() }
    }
}
