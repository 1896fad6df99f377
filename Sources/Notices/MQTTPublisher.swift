import Countdowns
import Foundation
import Logging
import Subscriptions
import Synchronization

/// Keeps a broker holding exactly the retained messages the feeds want
/// (`HomeAssistantSensors`): a changed payload is published, a countdown's
/// topics that are no longer wanted are cleared (an empty retained message,
/// which removes a discovered sensor from Home Assistant), and on every
/// connect everything wanted is published again, so a broker that restarted
/// without persistence is whole again. Memory is what the feeds want, never
/// a queue of what could not be sent.
package final class MQTTPublisher: Sendable {
    package struct Status: Codable, Sendable {
        package var target: String
        package var connected: Bool
        package var topics: Int
        package var lastError: String?
    }

    private struct State {
        /// Per feed, the topics and payloads wanted.
        var wanted: [String: [String: [UInt8]]] = [:]
        /// Topics to clear once connected (no longer wanted while the broker was away).
        var toClear: Set<String> = []
        /// What was published since the last connect.
        var published: [String: [UInt8]] = [:]
    }

    package static let maxPendingClears = 100_000

    package let label: String
    package let sensors: HomeAssistantSensors
    private let connection: MQTTConnection
    private let state = Mutex(State())

    package init(label: String, settings: MQTTSettings, version: String, logger: Logger) throws {
        self.label = label
        sensors = HomeAssistantSensors(settings: settings, version: version)
        connection = try MQTTConnection(settings: settings, clientID: "tminus-\(UUID().uuidString.prefix(8))", logger: logger)
        try connection.start { [weak self] in self?.republish() }
    }

    package func stop() { connection.stop() }

    /// Returns once the broker answered the first connect and acknowledged what was published (`MQTTConnection.settled`).
    package func settled() async { await connection.settled() }

    package var status: Status {
        Status(target: label, connected: connection.isConnected, topics: state.withLock { $0.wanted.values.reduce(0) { $0 + $1.count } },
               lastError: connection.lastError)
    }

    /// The feed's countdowns now: publishes what changed, clears what went.
    package func sync(feed: Feed, snapshots: [CountdownSnapshot]) {
        let messages = sensors.messages(feed: feed, snapshots: snapshots)
        let connected = connection.isConnected
        let (send, clear) = state.withLock { state -> ([(String, [UInt8])], [String]) in
            let gone = Set(state.wanted[feed.slug]?.keys ?? [:].keys).subtracting(messages.keys)
            state.wanted[feed.slug] = messages
            guard connected else {
                if state.toClear.count < Self.maxPendingClears { state.toClear.formUnion(gone) }
                state.toClear.subtract(messages.keys)
                return ([], [])
            }
            let changed = messages.filter { state.published[$0.key] != $0.value }.sorted { $0.key < $1.key }
            for (topic, payload) in changed { state.published[topic] = payload }
            for topic in gone { state.published[topic] = nil }
            return (changed.map { ($0.key, $0.value) }, gone.sorted())
        }
        publish(send, clear: clear)
    }

    /// Removes the feed's sensors (its notify: entry went away).
    package func forget(feed slug: String) {
        let clear = state.withLock { state -> [String] in
            let gone = Array(state.wanted.removeValue(forKey: slug)?.keys ?? [:].keys)
            for topic in gone { state.published[topic] = nil }
            return gone.sorted()
        }
        if connection.isConnected { publish([], clear: clear) } else { state.withLock { $0.toClear.formUnion(clear) } }
    }

    /// After a connect: everything wanted, and the clears that waited.
    private func republish() {
        let (send, clear) = state.withLock { state -> ([(String, [UInt8])], [String]) in
            var all: [String: [UInt8]] = [:]
            for messages in state.wanted.values { all.merge(messages) { first, _ in first } }
            state.published = all
            let clear = state.toClear.subtracting(all.keys).sorted()
            state.toClear = []
            return (all.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, clear)
        }
        publish(send, clear: clear)
    }

    private func publish(_ messages: [(String, [UInt8])], clear: [String]) {
        do {
            for topic in clear { try connection.publish(topic, [], retain: true) }
            for (topic, payload) in messages { try connection.publish(topic, payload, retain: true) }
        } catch {
            // The loop reconnects and `republish` sends everything again.
            connection.logger.warning("MQTT publish failed", metadata: ["target": "\(label)", "error": "\(error)"])
        }
    }
}
