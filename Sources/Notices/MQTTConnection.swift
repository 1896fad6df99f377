import CMosquitto
import Foundation
import Logging
import Subscriptions
import Synchronization

/// One connection to an MQTT broker through libmosquitto (Debian's
/// libmosquitto-dev), run by a network thread of ours that calls
/// `mosquitto_loop` and reconnects with a growing wait (1 s doubling to 60 s).
/// What to publish is not queued here while the broker is away: the owner
/// keeps the state it wants and publishes it again on each connect
/// (`onConnect`), so a broker that is down for a week costs no memory.
///
/// Why not libmosquitto's own thread (`mosquitto_loop_start`): it can only be
/// stopped by marking the client disconnected and joining the thread, and a
/// disconnect that lands while that thread is between its state check and
/// `mosquitto_reconnect` is overwritten by the reconnect, so the thread runs
/// on and the join never returns (a CI run of the MQTT suite hung for 78
/// minutes); its other way out, cancelling the thread, stopped it inside our
/// callbacks holding the log's lock. Our thread reads one flag of ours before
/// each step, so `stop` returns within a loop's timeout, whatever the broker does.
package final class MQTTConnection: @unchecked Sendable {
    // @unchecked: the client handle is behind a Mutex (taken out once by `stop`),
    // libmosquitto's calls are thread-safe once told threads use it
    // (`mosquitto_threaded_set`), and the rest is behind Mutexes too.

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// libmosquitto's one-time global set-up.
    private static let library: Void = { mosquitto_lib_init() }()

    /// The client until `stop` takes it out: a publish holds the lock while it uses the
    /// handle, so none can reach it once it is destroyed.
    private let client = Mutex<Handle?>(nil)
    /// libmosquitto's client, passed between threads as its docs allow with the threaded loop.
    private struct Handle: @unchecked Sendable { let pointer: OpaquePointer }
    private let state = Mutex<(connected: Bool, lastError: String?)>((false, nil))
    private let onConnect = Mutex<(@Sendable () -> Void)?>(nil)
    /// Publishes the broker has not acknowledged yet (QoS 1 message ids), whether
    /// it answered a connect yet, and who waits for both (`settled()`).
    private let delivery = Mutex<(unacknowledged: Set<Int32>, answered: Bool, waiters: [CheckedContinuation<Void, Never>])>(([], false, []))
    /// Set by `stop`; the network thread reads it before each step and ends.
    private let stopping = NSCondition()
    private var stopRequested = false   // guarded by `stopping`
    /// Signalled by the network thread as it ends.
    private let ended = DispatchSemaphore(value: 0)
    private let threadStarted = Mutex(false)
    /// How long one `mosquitto_loop` waits for the socket: the longest `stop` waits for the thread to look at its flag.
    static let loopTimeoutMilliseconds: Int32 = 200
    private let observe: (@Sendable (ReconnectStep) -> Void)?
    package let settings: MQTTSettings
    package let logger: Logger
    /// `{topic}/status`: "online" while connected, "offline" (the will) otherwise.
    package var statusTopic: String { settings.topic + "/status" }

    /// A step of the network thread's reconnect cycle, told to `observe` as it is taken.
    package enum ReconnectStep: Sendable { case waiting, reconnecting }

    /// `observe`: told on the network thread of each reconnect step (a test stops the connection at each one).
    package init(settings: MQTTSettings, clientID: String, logger: Logger, observe: (@Sendable (ReconnectStep) -> Void)? = nil) throws {
        Self.library
        self.settings = settings
        self.logger = logger
        self.observe = observe
        guard let handle = mosquitto_new(clientID, true, Unmanaged.passUnretained(self).toOpaque()) else {
            throw Failure(description: "libmosquitto cannot make a client")
        }
        client.withLock { $0 = Handle(pointer: handle) }
        // Threads other than the network thread publish: libmosquitto then queues and wakes the loop.
        mosquitto_threaded_set(handle, true)
        mosquitto_connect_callback_set(handle) { _, context, code in
            guard let context else { return }
            Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue().connected(code)
        }
        mosquitto_disconnect_callback_set(handle) { _, context, code in
            guard let context else { return }
            Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue().disconnected(code)
        }
        mosquitto_publish_callback_set(handle) { _, context, messageID in
            guard let context else { return }
            Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue().acknowledged(messageID)
        }
        _ = "offline".withCString { mosquitto_will_set(handle, statusTopic, 7, $0, 1, true) }
        if let username = settings.username {
            let password = try settings.password.map { secret in
                do { return try secret.read() } catch { throw Failure(description: "the broker's password: \(error)") }
            }
            try check(mosquitto_username_pw_set(handle, username, password), "cannot set the login")
        }
        if settings.tls {
            try check(mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "cannot use the system's certificates")
        }
    }

    /// Starts the network thread, which connects; `onConnect` runs on that thread after each connect.
    package func start(onConnect: @escaping @Sendable () -> Void) throws {
        self.onConnect.withLock { $0 = onConnect }
        guard let handle = client.withLock({ $0 }) else { return }
        threadStarted.withLock { $0 = true }
        let thread = Thread { [self] in networkLoop(handle) }
        thread.name = "mqtt \(settings.host):\(settings.port)"
        thread.start()
    }

    /// Says "offline", disconnects and frees the client; a second call does nothing.
    /// Returns once the network thread has ended: within one loop's timeout and the
    /// "offline" message's flush (at most 2 s), never waiting on the broker.
    package func stop() {
        guard let handle = client.withLock({ handle -> OpaquePointer? in defer { handle = nil }; return handle?.pointer }) else { return }
        stopping.withLock { stopRequested = true; stopping.broadcast() }
        if threadStarted.withLock({ $0 }) { ended.wait() }
        mosquitto_destroy(handle)
    }

    private var isStopping: Bool { stopping.withLock { stopRequested } }

    /// The network thread: reads and writes the socket, reconnects after a growing
    /// wait when the connection is refused or lost, and on `stop` says "offline",
    /// disconnects and flushes that before it ends.
    private func networkLoop(_ handle: Handle) {
        defer { ended.signal() }
        // The first connect too is made here: its name lookup blocks, and the caller may be on Swift's cooperative pool.
        let first = mosquitto_connect_async(handle.pointer, settings.host, Int32(settings.port), 60)
        if first != 0 { connectFailed(first) }
        var failures = 0
        while !isStopping {
            if mosquitto_loop(handle.pointer, Self.loopTimeoutMilliseconds, 1) == 0 {
                if isConnected { failures = 0 }
                continue
            }
            // Not connected (refused, lost, or never reached): wait, then try again, unless stopped meanwhile.
            let wait = Self.reconnectDelay(afterFailures: failures)
            failures += 1
            observe?(.waiting)
            let stopped = stopping.withLock { () -> Bool in
                let until = Date().addingTimeInterval(wait)
                while !stopRequested, stopping.wait(until: until) {}
                return stopRequested
            }
            if stopped { break }
            observe?(.reconnecting)
            let code = mosquitto_reconnect_async(handle.pointer)
            if code != 0 { connectFailed(code) }
        }
        if isConnected {
            _ = "offline".withCString { mosquitto_publish(handle.pointer, nil, statusTopic, 7, $0, 1, true) }
        }
        mosquitto_disconnect(handle.pointer)
        // Sends what is queued ("offline", then DISCONNECT); ends when the socket closes, at most ten rounds.
        for _ in 0..<10 where mosquitto_loop(handle.pointer, Self.loopTimeoutMilliseconds, 1) == 0 {}
        state.withLock { $0.connected = false }
    }

    /// 1 s after the first failure, doubling to at most a minute.
    static func reconnectDelay(afterFailures failures: Int) -> TimeInterval {
        TimeInterval(min(60, 1 << min(failures, 6)))
    }

    /// The network thread holds the connection until `stop`, so this runs only after it (or without a start).
    deinit { stop() }

    package var isConnected: Bool { state.withLock { $0.connected } }
    package var lastError: String? { state.withLock { $0.lastError } }

    /// Publishes at QoS 1; an empty retained payload removes what the topic held.
    package func publish(_ topic: String, _ payload: [UInt8], retain: Bool) throws {
        let code = try client.withLock { handle in
            guard let handle = handle?.pointer else { throw Failure(description: "the connection is closed") }
            // Under the lock, so that the acknowledgment (on the network thread) finds the id noted.
            return delivery.withLock { delivery in
                var messageID: Int32 = 0
                let code = payload.withUnsafeBytes { bytes in
                    mosquitto_publish(handle, &messageID, topic, Int32(bytes.count), bytes.baseAddress, 1, retain)
                }
                if code == 0 { delivery.unacknowledged.insert(messageID) }
                return code
            }
        }
        try check(code, "cannot publish to \(topic)")
    }

    /// Returns once the broker answered the first connect (accepted or refused)
    /// and, connected, acknowledged everything published so far. A test awaits
    /// it instead of asking the broker again and again.
    package func settled() async {
        await withCheckedContinuation { continuation in
            let done = delivery.withLock { delivery -> Bool in
                guard !delivery.answered || (isConnected && !delivery.unacknowledged.isEmpty) else { return true }
                delivery.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    private func acknowledged(_ messageID: Int32) {
        let waiters = delivery.withLock { delivery -> [CheckedContinuation<Void, Never>] in
            delivery.unacknowledged.remove(messageID)
            guard delivery.answered, delivery.unacknowledged.isEmpty else { return [] }
            defer { delivery.waiters = [] }
            return delivery.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The first answer to a connect: waiters for a refused one go on now; for an
    /// accepted one, once what `onConnect` published is acknowledged.
    private func answered() {
        let waiters = delivery.withLock { delivery -> [CheckedContinuation<Void, Never>] in
            delivery.answered = true
            guard delivery.unacknowledged.isEmpty || !isConnected else { return [] }
            defer { delivery.waiters = [] }
            return delivery.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func check(_ code: Int32, _ what: String) throws {
        guard code == 0 else { throw Failure(description: "\(what): \(Self.describe(code))") }
    }

    private static func describe(_ code: Int32) -> String { String(cString: mosquitto_strerror(code)) }

    private func record(error: String?) {
        state.withLock { $0.lastError = error }
        if let error { logger.warning("MQTT broker", metadata: ["broker": "\(settings.host):\(settings.port)", "error": "\(error)"]) }
    }

    /// A connect that failed at once (no such host, the port closed): an answer, like a refusal.
    private func connectFailed(_ code: Int32) {
        record(error: "cannot connect to \(settings.host):\(settings.port): \(Self.describe(code))")
        answered()
    }

    private func connected(_ code: Int32) {
        guard code == 0 else {
            let reason = String(cString: mosquitto_connack_string(code))
            state.withLock { $0 = (false, "the broker refused the connection: \(reason)") }
            logger.warning("MQTT broker refused the connection", metadata: ["broker": "\(settings.host):\(settings.port)", "reason": "\(reason)"])
            answered()
            return
        }
        state.withLock { $0 = (true, nil) }
        logger.info("MQTT connected", metadata: ["broker": "\(settings.host):\(settings.port)"])
        try? publish(statusTopic, Array("online".utf8), retain: true)
        onConnect.withLock { $0 }?()
        answered()
    }

    private func disconnected(_ code: Int32) {
        // A refused login is the reason to keep showing, not the disconnect that follows it.
        let refused = state.withLock { state in
            state.connected = false
            return state.lastError?.hasPrefix("the broker refused") ?? false
        }
        if code != 0, !refused { record(error: "the connection was lost (\(Self.describe(code))); reconnecting") }
        // Nothing more will be acknowledged on this connection: whoever waits goes on. A connect
        // that ended without an answer (the broker's port closed) is an answer too, or `settled`
        // would wait for a broker that is not there.
        let waiters = delivery.withLock { delivery -> [CheckedContinuation<Void, Never>] in
            delivery.answered = true
            defer { delivery.waiters = [] }
            return delivery.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
