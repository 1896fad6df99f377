import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing
import TestSupport
@testable import FeedServer
import Logging
import Notices
@testable import Subscriptions
import Synchronization

/// Debian's mosquitto and its clients, where they are.
enum Mosquitto {
    static let broker = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let subscriber = ["/usr/bin/mosquitto_sub"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let publisher = ["/usr/bin/mosquitto_pub"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let passwd = ["/usr/bin/mosquitto_passwd"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var installed: Bool { broker != nil && subscriber != nil && publisher != nil && passwd != nil }
}

/// Issue #26: each countdown of a feed with `notify: - mqtt:` becomes a Home
/// Assistant sensor on a real broker (Debian's mosquitto, started here on
/// loopback with a password file), retained, removed with the countdown, and
/// updated when the feed's day begins. `make test-mqtt` installs mosquitto
/// and runs this suite; elsewhere it is skipped when mosquitto is missing.
@Suite(.enabled(if: Mosquitto.installed, "mosquitto and its clients are not installed (make test-mqtt installs them)"), .timeLimit(.minutes(10)))
struct MQTTSensorTests {

    /// A broker on a free loopback port, with one user; stopped by PID.
    final class Broker: Sendable {
        let port: Int
        let process: Process
        let password: String

        /// Starts it and returns once it says it listens (its own log line, not a poll of the port).
        init(in directory: URL) async throws {
            port = Loopback.freePort()
            password = "broker-\(UInt32.random(in: 0...UInt32.max))"
            let passwords = directory.appendingPathComponent("mosquitto.passwd")
            try Data("ha:\(password)\n".utf8).write(to: passwords)
            let hash = Process()
            hash.executableURL = URL(fileURLWithPath: try #require(Mosquitto.passwd))
            hash.arguments = ["-U", passwords.path]
            try ChildProcesses.start(hash)
            hash.waitUntilExit()
            let config = directory.appendingPathComponent("mosquitto.conf")
            try Data("""
                listener \(port) 127.0.0.1
                allow_anonymous false
                password_file \(passwords.path)
                persistence false
                log_dest stderr

                """.utf8).write(to: config)
            process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(Mosquitto.broker))
            process.arguments = ["-c", config.path]
            let log = directory.appendingPathComponent("mosquitto.log")
            let output = try OutputWatch(file: log.path)
            try output.start(process)
            guard await output.wait(for: "listen socket on port \(port)") else {
                let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                stop()
                throw Failure(description: "mosquitto did not listen on \(port) within 10 s: \(said.suffix(500))")
            }
            // The end mark of every read of the retained messages (`retainedNow`).
            let mark = Process()
            mark.executableURL = URL(fileURLWithPath: try #require(Mosquitto.publisher))
            mark.arguments = ["-h", "127.0.0.1", "-p", String(port), "-u", "ha", "-P", password, "-r", "-t", Self.endTopic, "-m", "end"]
            try ChildProcesses.start(mark)
            mark.waitUntilExit()
        }

        /// A retained topic subscribed to last: mosquitto sends each filter's retained
        /// messages in the order of the SUBSCRIBE, so this one arrives after all the others.
        static let endTopic = "tminus-test/end"

        struct Failure: Error, CustomStringConvertible {
            var description: String
        }


        /// SIGKILL: the test process blocks SIGTERM in its threads (service lifecycle's signal handling), and children inherit the mask.
        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        /// Every retained message under the topics now: topic → payload (mosquitto_sub, as a Home
        /// Assistant would subscribe). On a thread of its own: a blocking read on Swift's cooperative
        /// pool (two threads on a two-core machine) would stall the server under test.
        func retained() async throws -> [String: String] {
            try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try self.retainedNow() }) }.start()
            }
        }

        private func retainedNow() throws -> [String: String] {
            let sub = Process()
            sub.executableURL = URL(fileURLWithPath: try #require(Mosquitto.subscriber))
            sub.arguments = ["-h", "127.0.0.1", "-p", String(port), "-u", "ha", "-P", password, "-t", "homeassistant/#", "-t", "tminus/#",
                             "-t", Self.endTopic, "--retained-only", "-F", "%t\t%p"]
            let out = Pipe()
            sub.standardOutput = out
            sub.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try ChildProcesses.start(sub)
            // Read until the end mark, which comes after every retained message; then stopped by
            // SIGKILL (its own -W uses SIGALRM, which the test process's threads block, as they
            // block SIGTERM, and a child inherits that).
            var text = ""
            let end = "\n\(Self.endTopic)\t"
            while !("\n" + text).contains(end) {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }   // it exited: the broker refused it
                text += String(decoding: chunk, as: UTF8.self)
            }
            kill(sub.processIdentifier, SIGKILL)
            sub.waitUntilExit()
            var messages: [String: String] = [:]
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                if parts.count == 2, parts[0] != Self.endTopic { messages[String(parts[0])] = String(parts[1]) }
            }
            return messages
        }
    }

    /// One round of the notice service, run by the test: the watcher looks at every
    /// feed once, and returns when the broker has acknowledged what that published.
    static func settle(_ parts: ServerFixture.Parts) async {
        await parts.dependencies.notices.tick()
        await parts.dependencies.notices.settled()
    }

    /// What Home Assistant's MQTT discovery documents for a sensor's config:
    /// the topic shape, the keys it needs, a unit the device class allows, one device.
    static func problems(topic: String, config: [String: Any]) -> [String] {
        var problems: [String] = []
        let parts = topic.split(separator: "/").map(String.init)
        let idCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
        if !(parts.count == 5 && parts[0] == "homeassistant" && parts[1] == "sensor" && parts[4] == "config"
             && parts[2...3].allSatisfy { $0.unicodeScalars.allSatisfy(idCharacters.contains) }) {
            problems.append("topic \(topic) is not <prefix>/sensor/<node_id>/<object_id>/config")
        }
        for key in ["name", "unique_id", "state_topic", "json_attributes_topic", "availability_topic"] where !(config[key] is String) {
            problems.append("\(key) is missing")
        }
        if config["device_class"] as? String == "duration", !["d", "h", "min", "s", "ms"].contains(config["unit_of_measurement"] as? String ?? "") {
            problems.append("a duration sensor's unit must be d, h, min, s or ms")
        }
        if ((config["device"] as? [String: Any])?["identifiers"] as? [String])?.isEmpty != false { problems.append("device.identifiers is missing") }
        return problems
    }

    @Test func eachCountdownIsARetainedSensorRemovedWithItAndUpdatedAtMidnight() async throws {
        let fixture = try ServerFixture()
        let broker = try await Broker(in: fixture.directory)
        defer { broker.stop() }
        try Data((broker.password + "\n").utf8).write(to: fixture.directory.appendingPathComponent("broker.secret"))
        try fixture.feed("exams", calendar: NoticeTests.calendar, yaml: """
            timeZone: Europe/Budapest
            notify:
              - mqtt: mqtt://127.0.0.1:\(broker.port)
                username: ha
                passwordFile: ../broker.secret
            """)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            await Self.settle(parts)
            let messages = try await broker.retained()
            #expect(messages.keys.filter { $0.hasSuffix("/config") }.count == 3 && messages.keys.filter { $0.hasSuffix("/state") }.count == 3)
            #expect(messages["tminus/status"] == "online")
            var byTitle: [String: (config: String, state: String, attributes: String)] = [:]
            var uniqueIDs = Set<String>()
            for (topic, payload) in messages where topic.hasSuffix("/config") {
                let config = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
                #expect(Self.problems(topic: topic, config: config).isEmpty, "\(topic): \(Self.problems(topic: topic, config: config))")
                uniqueIDs.insert(config["unique_id"] as? String ?? "")
                let name = try #require(config["name"] as? String)
                byTitle[name] = (topic, try #require(config["state_topic"] as? String), try #require(config["json_attributes_topic"] as? String))
            }
            #expect(uniqueIDs.count == 3)
            let exam = try #require(byTitle["Maths final"])
            let trip = try #require(byTitle["Trip"])
            #expect(messages[exam.state] == "3" && messages[trip.state] == "7")
            let attributes = try #require(try JSONSerialization.jsonObject(with: Data((messages[exam.attributes] ?? "").utf8)) as? [String: Any])
            #expect(attributes["title"] as? String == "Maths final" && attributes["date"] as? String == "2026-11-25" && attributes["days"] as? Int == 3)
            #expect(attributes["workdays"] is Int && attributes.keys.contains("progress"))

            // The day begins in Budapest: every state moves on.
            fixture.setClock(fixture.clockNow.addingTimeInterval(86_400))
            await Self.settle(parts)
            #expect(try await broker.retained()[exam.state] == "2")

            // The concert goes: its sensor is removed (the config topic no longer retained).
            let concert = try #require(byTitle["Concert"])
            let countdowns = try await client.text("/api/feeds/exams/countdowns", headers: fixture.admin).1
            let list = try #require((try JSONSerialization.jsonObject(with: Data(countdowns.utf8)) as? [String: Any])?["countdowns"] as? [[String: Any]])
            let id = try #require(list.first { $0["title"] as? String == "Concert" }?["id"] as? Int)
            #expect(try await client.execute(uri: "/api/countdowns/\(id)", method: .delete, headers: fixture.admin).status == .noContent)
            await Self.settle(parts)
            let now = try await broker.retained()
            #expect(now[concert.config] == nil && now[concert.state] == nil && now[exam.config] != nil)
            let health = try #require(try JSONSerialization.jsonObject(with: Data(try await client.text("/api/health", headers: fixture.admin).1.utf8))
                as? [String: Any])
            let brokers = try #require(health["brokers"] as? [[String: Any]])
            #expect(brokers.count == 1 && brokers[0]["connected"] as? Bool == true && brokers[0]["topics"] as? Int == 6)
            // What the notice service does when the server stops.
            parts.dependencies.notices.stop()
        }
        // The server stopped: the broker says the sensors are unavailable.
        #expect(try await broker.retained()["tminus/status"] == "offline")
    }

    /// Waits for `semaphore` on a thread of its own, never on Swift's cooperative pool.
    static func waitOffPool(_ semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { continuation in Thread { semaphore.wait(); continuation.resume() }.start() }
    }

    /// A log handler that holds the network thread inside its one log call of a refused
    /// login until the test lets it go, and says whether that call returned.
    final class HeldLog: LogHandler, @unchecked Sendable {
        // @unchecked: the semaphores are thread-safe, the flags behind a Mutex.
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let returned = Mutex(false)
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info
        subscript(metadataKey key: String) -> Logger.Metadata.Value? { get { metadata[key] } set { metadata[key] = newValue } }
        func log(event: LogEvent) {
            guard event.message.description.contains("refused the connection") else { return }
            entered.signal()
            release.wait()
            returned.withLock { $0 = true }
        }
    }

    /// Regression (a CI run of this suite hung): stopping a connection that is not connected
    /// cancelled libmosquitto's network thread wherever it was, also inside a callback of ours
    /// holding a lock (the log's, on standard output), which then stayed held. Now `stop`
    /// lets the thread finish what it does and end by itself.
    @Test func stoppingARefusedConnectionLetsItsNetworkThreadFinishItsCallback() async throws {
        let fixture = try ServerFixture()
        let broker = try await Broker(in: fixture.directory)
        defer { broker.stop() }
        let held = HeldLog()
        let settings = MQTTSettings(host: "127.0.0.1", port: broker.port, tls: false, username: "ha",
                                    password: .saved("not-the-password"), topic: "tminus-test", discoveryPrefix: nil)
        let connection = try MQTTConnection(settings: settings, clientID: "tminus-test-stop", logger: Logger(label: "held") { _ in held })
        try connection.start { }
        // The network thread is now inside the log call of the refused login, and stays there.
        await Self.waitOffPool(held.entered)
        // Stop from a thread of its own, and let the log call go once that thread is stopping: a stop
        // that cancels (the old one) cuts the call short before it can return; a fixed one waits for it.
        let stopping = DispatchSemaphore(value: 0), stopped = DispatchSemaphore(value: 0)
        Thread { stopping.signal(); connection.stop(); stopped.signal() }.start()
        await Self.waitOffPool(stopping)
        held.release.signal()
        await Self.waitOffPool(stopped)
        #expect(held.returned.withLock { $0 }, "the network thread was stopped inside the log call")
        #expect(connection.isConnected == false)
    }

    /// Stops `connection` from a thread of its own and returns once `stop` did.
    static func stopOffPool(_ connection: MQTTConnection) async {
        await withCheckedContinuation { continuation in Thread { connection.stop(); continuation.resume() }.start() }
    }

    /// Regression (a CI run of this suite hung for 78 minutes, killed at CI's limit): `stop`
    /// joined libmosquitto's own network thread, and a disconnect that landed while that
    /// thread was about to reconnect was overwritten by the reconnect, so the thread ran on
    /// and the join never returned. Now the thread is ours and reads our flag before each
    /// step. A refused login goes round a cycle (refused, wait, reconnect, refused …); each
    /// round stops it at another step of that cycle, as the thread takes it.
    @Test(arguments: [(MQTTConnection.ReconnectStep?.none, 1), (.waiting, 1), (.reconnecting, 1), (.waiting, 2), (.reconnecting, 2)])
    func stoppingAConnectionAtAnyStepOfItsReconnectsReturns(step: MQTTConnection.ReconnectStep?, occurrence: Int) async throws {
        let fixture = try ServerFixture()
        let broker = try await Broker(in: fixture.directory)
        defer { broker.stop() }
        let settings = MQTTSettings(host: "127.0.0.1", port: broker.port, tls: false, username: "ha",
                                    password: .saved("not-the-password"), topic: "tminus-test", discoveryPrefix: nil)
        var logger = Logger(label: "tminus-test")
        logger.logLevel = .critical
        let reached = DispatchSemaphore(value: 0)
        let seen = Mutex(0)
        let connection = try MQTTConnection(settings: settings, clientID: "tminus-test-reconnect", logger: logger) { taken in
            guard taken == step, seen.withLock({ count in count += 1; return count == occurrence }) else { return }
            reached.signal()
        }
        try connection.start { }
        await connection.settled()
        #expect(connection.lastError?.contains("refused") == true)
        if step != nil { await Self.waitOffPool(reached) }
        await Self.stopOffPool(connection)
        #expect(connection.isConnected == false)
    }

    /// A broker whose port is closed answers nothing: `settled` returns (a test waiting on it
    /// would wait forever) with the reason, and `stop` returns.
    @Test func aClosedPortSettlesWithTheReasonAndStops() async throws {
        let settings = MQTTSettings(host: "127.0.0.1", port: Loopback.freePort(), tls: false, username: nil,
                                    password: nil, topic: "tminus-test", discoveryPrefix: nil)
        var logger = Logger(label: "tminus-test")
        logger.logLevel = .critical
        let connection = try MQTTConnection(settings: settings, clientID: "tminus-test-closed", logger: logger)
        try connection.start { }
        await connection.settled()
        #expect(connection.isConnected == false && connection.lastError != nil)
        await Self.stopOffPool(connection)
    }

    @Test func aWrongBrokerPasswordIsReportedInHealth() async throws {
        let fixture = try ServerFixture()
        let broker = try await Broker(in: fixture.directory)
        defer { broker.stop() }
        try Data("not-the-password\n".utf8).write(to: fixture.directory.appendingPathComponent("broker.secret"))
        try fixture.feed("exams", calendar: NoticeTests.calendar, yaml: """
            notify:
              - mqtt: mqtt://127.0.0.1:\(broker.port)
                username: ha
                passwordFile: ../broker.secret
            """)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            await Self.settle(parts)
            let health = try await client.text("/api/health", headers: fixture.admin).1
            #expect(health.contains("the broker refused the connection"))
            #expect(health.contains("\"status\":\"degraded\"") && !health.contains("not-the-password"))
            parts.dependencies.notices.stop()
        }
    }
}
