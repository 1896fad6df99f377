import Foundation
import ICalendar
import Logging
import Subscriptions
import Synchronization

/// Delivers notices in the background, one lane per feed and target, in
/// order, retrying a failure with a growing wait. Nothing here is on a
/// request's path, and nothing grows without bound: a lane holds at most
/// `maxPending` notices (the oldest goes first, and is counted), and keeps
/// the last `logLength` attempts for `/api/health` and the web app.
package final class NoticeOutbox: Sendable {
    /// One line of a lane's delivery log.
    /// What became of one attempt; in `/api/health` as `delivered`, `retrying`, `gave up` or `dropped`.
    package enum Outcome: String, Codable, Sendable {
        case delivered, retrying, dropped
        case gaveUp = "gave up"

        /// Its text in the web app's words (`outcome.gaveUp`).
        package var wordKey: String {
            switch self {
            case .delivered: "outcome.delivered"
            case .retrying: "outcome.retrying"
            case .dropped: "outcome.dropped"
            case .gaveUp: "outcome.gaveUp"
            }
        }
    }

    package struct LogEntry: Codable, Sendable, Equatable {
        package var at: String
        package var notice: String
        package var event: String
        package var outcome: Outcome
        package var attempt: Int
        package var detail: String?
    }

    /// A lane as health answers show it.
    package struct LaneStatus: Codable, Sendable {
        package var feed: String
        package var target: String
        package var events: [String]
        package var pending: Int
        package var delivered: Int
        package var dropped: Int
        /// True when the last attempt failed.
        package var failing: Bool
        package var lastError: String?
        package var lastDelivered: String?
        package var log: [LogEntry]
    }

    /// A lane: the feed and the target's whole identity (never its label, which drops the query string).
    package struct Key: Hashable, Sendable {
        package var feed: String
        package var target: NoticeTarget.Kind
    }

    private struct Lane {
        var target: NoticeTarget
        var queue: [Notice] = []
        var attempts = 0
        var working = false
        /// Asleep until its next retry (on `waitClock`): true once that retry is due.
        var retryDue: (@Sendable () -> Bool)?

        /// Sending, or about to: working, and not asleep before a retry that is not due yet.
        var isBusy: Bool { working && (retryDue?() ?? true) }
        var delivered = 0
        var dropped = 0
        var failing = false
        var lastError: String?
        var lastDelivered: Date?
        var log: [LogEntry] = []
    }

    package static let maxPending = 100
    package static let logLength = 20
    /// Attempts before a notice is given up (about 3 hours of waiting with the default backoff).
    package static let maxAttempts = 8

    private let lanes = Mutex<[Key: Lane]>([:])
    /// Each lane's worker, the last one started (a lane has one at a time).
    private let workers = Mutex<[Key: Task<Void, Never>]>([:])
    private let send: @Sendable (Notice, NoticeTarget) async throws(NoticeSender.Failed) -> Void
    private let clock: @Sendable () -> Date
    private let waitClock: any Clock<Duration>
    private let backoff: Duration
    /// Who waits for every lane to be idle or asleep before a retry (`quiescent()`).
    private let quiescentWaiters = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let logger: Logger

    /// `backoff` is the first wait; each later one is three times the last, at most an hour.
    package init(backoff: Duration = .seconds(10), clock: @escaping @Sendable () -> Date, waitClock: any Clock<Duration> = ContinuousClock(),
                 logger: Logger, send: @escaping @Sendable (Notice, NoticeTarget) async throws(NoticeSender.Failed) -> Void) {
        self.backoff = backoff
        self.waitClock = waitClock
        self.clock = clock
        self.logger = logger
        self.send = send
    }

    package func post(_ notice: Notice, feed: String, to target: NoticeTarget) {
        let key = Key(feed: feed, target: target.kind)
        let start = lanes.withLock { lanes -> Bool in
            var lane = lanes[key] ?? Lane(target: target)
            lane.target = target
            if lane.queue.count >= Self.maxPending {
                let oldest = lane.queue.removeFirst()
                lane.dropped += 1
                Self.append(LogEntry(at: UTCStamp.iso(clock()), notice: oldest.id, event: oldest.event.rawValue, outcome: .dropped, attempt: 0,
                                     detail: "more than \(Self.maxPending) notices were waiting"), to: &lane)
            }
            lane.queue.append(notice)
            let start = !lane.working
            lane.working = true
            lanes[key] = lane
            return start
        }
        if start {
            let task = Task { await self.drain(key) }
            workers.withLock { $0[key] = task }
        }
    }

    /// Returns once no lane is working: everything posted so far was delivered
    /// or given up (a retry's wait included). A caller that must see the
    /// outcome awaits it; nothing on a request's path does.
    package func idle() async {
        while true {
            for task in workers.withLock({ $0.values }) { await task.value }
            guard lanes.withLock({ $0.values.contains(where: \.working) }) else { return }
            // A lane got work after the workers were read: its worker is in the list by now, or about to be.
            await Task.yield()
        }
    }

    /// Returns once no lane is sending: each is idle, or asleep until its next
    /// retry. A test holding the wait clock awaits it, then moves the clock on.
    package func quiescent() async {
        await withCheckedContinuation { continuation in
            let now = lanes.withLock { lanes -> Bool in
                let busy = lanes.values.contains(where: \.isBusy)
                if busy { quiescentWaiters.withLock { $0.append(continuation) } }
                return !busy
            }
            if now { continuation.resume() }
        }
    }

    /// True from `wait` on `clock` after now.
    private static func deadline<C: Clock<Duration>>(on clock: C, after wait: Duration) -> @Sendable () -> Bool {
        let end = clock.now.advanced(by: wait)
        return { clock.now >= end }
    }

    /// Wakes `quiescent()`'s waiters when no lane is sending; called after a lane's state changed.
    private func lanesChanged() {
        let waiters = lanes.withLock { lanes -> [CheckedContinuation<Void, Never>] in
            guard !lanes.values.contains(where: \.isBusy) else { return [] }
            return quiescentWaiters.withLock { waiters in
                defer { waiters = [] }
                return waiters
            }
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Stops every lane's worker (at shutdown); what is pending is not sent.
    package func stop() {
        for task in workers.withLock({ $0.values }) { task.cancel() }
    }

    package var statuses: [LaneStatus] {
        lanes.withLock { lanes in
            lanes.sorted { ($0.key.feed, $0.value.target.label) < ($1.key.feed, $1.value.target.label) }.map { key, lane in
                LaneStatus(feed: key.feed, target: lane.target.label, events: lane.target.events.map(\.rawValue).sorted(), pending: lane.queue.count,
                           delivered: lane.delivered, dropped: lane.dropped, failing: lane.failing, lastError: lane.lastError,
                           lastDelivered: lane.lastDelivered.map { UTCStamp.iso($0) }, log: lane.log)
            }
        }
    }

    /// True when some lane's last attempt failed.
    package var anyFailing: Bool { lanes.withLock { $0.values.contains(where: \.failing) } }

    private static func append(_ entry: LogEntry, to lane: inout Lane) {
        lane.log.append(entry)
        if lane.log.count > logLength { lane.log.removeFirst(lane.log.count - logLength) }
    }

    private func drain(_ key: Key) async {
        while !Task.isCancelled {
            guard let (notice, target, attempt) = lanes.withLock({ lanes -> (Notice, NoticeTarget, Int)? in
                guard var lane = lanes[key], let first = lane.queue.first else {
                    lanes[key]?.working = false
                    return nil
                }
                lane.attempts += 1
                lanes[key] = lane
                return (first, lane.target, lane.attempts)
            }) else {
                lanesChanged()
                return
            }
            var wait: Duration?
            do {
                try await send(notice, target)
                lanes.withLock { lanes in
                    guard var lane = lanes[key] else { return }
                    if lane.queue.first?.id == notice.id { lane.queue.removeFirst() }
                    lane.attempts = 0
                    lane.delivered += 1
                    lane.failing = false
                    lane.lastError = nil
                    lane.lastDelivered = clock()
                    Self.append(LogEntry(at: UTCStamp.iso(clock()), notice: notice.id, event: notice.event.rawValue, outcome: .delivered,
                                         attempt: attempt), to: &lane)
                    lanes[key] = lane
                }
                logger.info("notice delivered", metadata: ["feed": "\(key.feed)", "target": "\(target.label)", "notice": "\(notice.id.prefix(12))"])
            } catch {
                let givingUp = error.permanent || attempt >= Self.maxAttempts
                lanes.withLock { lanes in
                    guard var lane = lanes[key] else { return }
                    lane.failing = true
                    lane.lastError = error.description
                    if givingUp {
                        if lane.queue.first?.id == notice.id { lane.queue.removeFirst() }
                        lane.attempts = 0
                    }
                    Self.append(LogEntry(at: UTCStamp.iso(clock()), notice: notice.id, event: notice.event.rawValue,
                                         outcome: givingUp ? .gaveUp : .retrying, attempt: attempt, detail: error.description), to: &lane)
                    lanes[key] = lane
                }
                logger.warning(givingUp ? "notice given up" : "notice failed; retrying", metadata: [
                    "feed": "\(key.feed)", "target": "\(target.label)", "attempt": "\(attempt)", "error": "\(error)",
                ])
                if !givingUp { wait = min(backoff * Int(pow(3.0, Double(attempt - 1))), .seconds(3600)) }
            }
            if let wait {
                let due = Self.deadline(on: waitClock, after: wait)
                lanes.withLock { $0[key]?.retryDue = due }
                lanesChanged()
                try? await waitClock.sleep(for: wait)
                lanes.withLock { $0[key]?.retryDue = nil }
            }
        }
    }
}
