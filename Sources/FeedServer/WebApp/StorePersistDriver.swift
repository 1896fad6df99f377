import CountdownStore
import Foundation
import Services
import Hummingbird
import Logging
import NIOPosix
import ServiceLifecycle

/// Hummingbird's key/value `PersistDriver` over the store, so that sessions live
/// in the database beside the countdowns: they survive a restart, and replicas
/// sharing one store (the PostgreSQL issue) share them. Values are JSON; keys
/// are kept only as hashes. `run()` deletes expired entries every few minutes.
struct StorePersistDriver: PersistDriver {
    let service: CountdownService
    var store: any CountdownStore { service.store }
    let logger: Logger
    var sweepInterval: Duration = .seconds(300)

    func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let bytes = try JSONEncoder().encode(value)
        let created = try await service.setPersistedValue(bytes, for: key, expiresIn: expires.map(Self.seconds), onlyIfAbsent: true)
        guard created else { throw PersistError.duplicate }
    }

    func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let bytes = try JSONEncoder().encode(value)
        try await service.setPersistedValue(bytes, for: key, expiresIn: expires.map(Self.seconds))
    }

    func get<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> Object? {
        try await getWithTTL(key: key, as: type)?.object
    }

    func getWithTTL<Object: Codable & Sendable>(key: String, as type: Object.Type) async throws -> (object: Object, ttl: Duration?)? {
        guard let found = try await store.persistedValue(for: key) else { return nil }
        let object: Object
        do { object = try JSONDecoder().decode(type, from: found.bytes) } catch { throw PersistError.invalidConversion }
        return (object, found.expiresAt.map { .milliseconds(Int64(max(0, $0.timeIntervalSinceNow) * 1000)) })
    }

    func remove(key: String) async throws {
        try await service.removePersistedValue(for: key)
    }

    func run() async throws {
        while (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: sweepInterval) })) != nil {
            do {
                let removed = try await service.removeExpiredPersistedValues()
                if removed > 0 { logger.debug("expired sessions removed", metadata: ["count": "\(removed)"]) }
            } catch {
                logger.warning("could not remove expired sessions", metadata: ["error": "\(error)"])
            }
        }
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        TimeInterval(duration.components.seconds) + TimeInterval(duration.components.attoseconds) / 1e18
    }
}
