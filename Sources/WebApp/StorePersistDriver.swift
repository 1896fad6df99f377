import CountdownStore
import Foundation
import Hummingbird
import Logging
import NIOPosix
import ServiceLifecycle
import Services

/// Hummingbird's key/value `PersistDriver` over the store, so that sessions live
/// in the database beside the countdowns: they survive a restart, and replicas
/// sharing one store (the PostgreSQL issue) share them. Values are JSON; keys
/// are kept only as hashes. `run()` deletes expired entries every few minutes.
package struct StorePersistDriver: PersistDriver {
    package let service: CountdownService
    package let logger: Logger
    package var sweepInterval: Duration = .seconds(300)

    package init(service: CountdownService, logger: Logger, sweepInterval: Duration = .seconds(300)) {
        self.service = service
        self.logger = logger
        self.sweepInterval = sweepInterval
    }

    package func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let bytes = try JSONEncoder().encode(value)
        let created = try await service.setPersistedValue(bytes, for: key, expiresIn: expires.map(Self.seconds), onlyIfAbsent: true)
        guard created else { throw PersistError.duplicate }
    }

    package func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let bytes = try JSONEncoder().encode(value)
        try await service.setPersistedValue(bytes, for: key, expiresIn: expires.map(Self.seconds))
    }

    package func get<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> Object? {
        try await getWithTTL(key: key, as: type)?.object
    }

    package func getWithTTL<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> (object: Object, ttl: Duration?)? {
        guard let found = try await service.persistedValue(for: key) else { return nil }
        let object: Object
        do { object = try JSONDecoder().decode(type, from: found.bytes) } catch { throw PersistError.invalidConversion }
        let now = service.clock()
        return (object, found.expiresAt.map { .milliseconds(Int64(max(0, min($0.timeIntervalSince(now), 1e9)) * 1000)) })
    }

    /// What the sweep waits on between rounds.
    package var waitClock: any Clock<Duration> = ContinuousClock()

    package func remove(key: String) async throws {
        try await service.removePersistedValue(for: key)
    }

    package func run() async throws {
        while (try? await cancelWhenGracefulShutdown({ [waitClock, sweepInterval] in try await waitClock.sleep(for: sweepInterval) })) != nil {
            do {
                let removed = try await service.removeExpiredPersistedValues()
                if removed > 0 { logger.debug("expired sessions removed", metadata: ["count": "\(removed)"]) }
            } catch {
                logger.warning("could not remove expired sessions", metadata: ["error": "\(error)"])
            }
        }
    }

    package static func seconds(_ duration: Duration) -> TimeInterval {
        TimeInterval(duration.components.seconds) + TimeInterval(duration.components.attoseconds) / 1e18
    }
}
