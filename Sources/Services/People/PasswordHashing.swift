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
package enum PasswordHashing {
    package static let maxWaiting = 32
    /// Its own thread, never one of libdispatch's (which Swift's tasks share).
    private static let pool = WorkerPool(name: "tminus-bcrypt", threads: 1)
    private static let waiting = Mutex(0)

    package struct Busy: Error, CustomStringConvertible {
        package var description: String { "too many sign-ins at once; try again in a few seconds" }
    }

    package static func hash(_ password: String, cost: UInt8) async throws -> String {
        try await run { Bcrypt.hash(password, cost: cost) }
    }

    package static func verify(_ password: String, hash: String) async throws -> Bool {
        try await run { Bcrypt.verify(password, hash: hash) }
    }

    /// Spends what a check costs, on a hash of no one's password: a sign-in
    /// with an unknown login takes as long as one with a wrong password.
    package static func spendACheck(_ password: String) async throws {
        let hash: String
        if let made = noOnesHash.withLock({ $0 }) { hash = made } else {
            hash = try await self.hash(Secret.generate(bytes: 16), cost: PasswordPolicy.cost)
            noOnesHash.withLock { $0 = hash }
        }
        _ = try await verify(password, hash: hash)
    }

    private static let noOnesHash = Mutex<String?>(nil)

    private static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        let admitted = waiting.withLock { count in
            guard count < maxWaiting else { return false }
            count += 1
            return true
        }
        guard admitted else { throw Busy() }
        defer { waiting.withLock { $0 -= 1 } }
        return try await pool.run { work() }
    }
}
