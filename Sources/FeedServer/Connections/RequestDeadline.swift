import Catalog
import HTTPSupport
import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client is too slow to send a whole request: its
/// head must arrive within `headLimit` of connecting (`idleLimit` of the
/// previous response, which is how long a keep-alive connection may idle),
/// and its body must then keep up `minimumBodyRate` bytes a second once
/// `bodyGrace` has passed, counting only the time the server was waiting for
/// it (not the time the application took before asking for more).
///
/// Why: Hummingbird's idle timeout is reset by every byte read, so a client
/// that sends its headers a byte at a time, or half a request and then
/// nothing, held its connection for as long as it liked; with thousands of
/// them the server ran out of descriptors. The head deadline stopped at the
/// headers, so 20 clients posting `Content-Length: 4000` and one byte every
/// 9 s still held all 20 places of `--max-connections 20`, and `/healthz`
/// timed out for a minute (issue #27). A rate, not a deadline, bounds the
/// body: an 8 MB import over a slow uplink is fine, a drip is not.
///
/// Time is the event loop's (`EventLoop.now`): the real clock on a server,
/// the test's on an `EmbeddedEventLoop`, which `RequestDeadlineTests` drives.
package final class RequestDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPRequestPart
    package typealias InboundOut = HTTPRequestPart
    package typealias OutboundIn = HTTPResponsePart
    package typealias OutboundOut = HTTPResponsePart

    package struct Limits: Sendable {
        package var headLimit: TimeAmount
        package var idleLimit: TimeAmount
        package var bodyGrace: TimeAmount
        package var minimumBodyRate: Int
    }

    private enum State {
        case awaitingHead
        case readingBody(bytes: Int, answered: Bool)
        case handling
    }

    private let limits: Limits
    private var state = State.awaitingHead
    /// When the connection is closed unless a request has begun: a head's
    /// deadline or a keep-alive's idle end; nil while a request is read or
    /// handled. Moved on every request without touching the timer, which
    /// looks again when it fires: scheduling and cancelling a task on the
    /// event loop for every request cost the cached path a few percent
    /// (issue #41), and a keep-alive connection now schedules about once
    /// per idle limit.
    private var expiry: NIODeadline?
    private var deadlineTimer: Scheduled<Void>?
    /// When `deadlineTimer` fires (meaningful while it is set).
    private var timerFiresAt = NIODeadline.distantPast
    private var bodyTimer: Scheduled<Void>?
    /// Only time spent waiting for the client counts against its body: from a
    /// read the server asked for until bytes arrive. While the application
    /// holds back reads (backpressure: it has not taken what came), the client
    /// is not late.
    private var waitingSince: NIODeadline?
    private var waited: TimeAmount = .zero

    /// Counts open connections for `/metrics`.
    private let metrics: ServerMetrics?
    private var counted = false
    /// A head was read and its body is to be watched, unless its end comes
    /// in the same read (a GET): the watch is scheduled at the end of the
    /// read (`channelReadComplete`), so a request without a body schedules
    /// and cancels no timer for it (issue #41: the 304 path).
    private var bodyWatchPending = false

    package init(limits: Limits, metrics: ServerMetrics? = nil) {
        self.limits = limits
        self.metrics = metrics
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive {
            arm(context, limits.headLimit)
            count(open: true)
        }
    }

    package func channelActive(context: ChannelHandlerContext) {
        arm(context, limits.headLimit)
        count(open: true)
        context.fireChannelActive()
    }

    private func count(open: Bool) {
        guard let metrics, counted != open else { return }
        counted = open
        metrics.openConnections.add(open ? 1 : -1, ordering: .relaxed)
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let since = waitingSince {
            waited = waited + (context.eventLoop.now - since)
            waitingSince = nil
        }
        switch unwrapInboundIn(data) {
        case .head:
            state = .readingBody(bytes: 0, answered: false)
            waited = .zero
            expiry = nil
            cancelBodyWatch()
            bodyWatchPending = true
        case .body(let buffer):
            if case .readingBody(let bytes, let answered) = state {
                state = .readingBody(bytes: bytes + buffer.readableBytes, answered: answered)
            }
        case .end:
            bodyWatchPending = false
            if case .readingBody(_, answered: true) = state {
                state = .awaitingHead
                arm(context, limits.idleLimit)
            } else {
                state = .handling
                expiry = nil
                cancelBodyWatch()
            }
        }
        context.fireChannelRead(data)
    }

    package func channelReadComplete(context: ChannelHandlerContext) {
        if bodyWatchPending {
            bodyWatchPending = false
            if case .readingBody = state { watchBody(context, after: limits.bodyGrace) }
        }
        context.fireChannelReadComplete()
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            switch state {
            case .handling, .awaitingHead:
                state = .awaitingHead
                arm(context, limits.idleLimit)
            case .readingBody(let bytes, _):
                // Answered before the body was all read (a 413, say): the body must still arrive at the rate.
                state = .readingBody(bytes: bytes, answered: true)
            }
        }
        context.write(data, promise: promise)
    }

    package func read(context: ChannelHandlerContext) {
        if case .readingBody = state, waitingSince == nil { waitingSince = context.eventLoop.now }
        context.read()
    }

    package func channelInactive(context: ChannelHandlerContext) {
        cancelTimers()
        count(open: false)
        context.fireChannelInactive()
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimers()
        count(open: false)
    }

    /// Checks the body's progress every second from the end of the grace period.
    private func watchBody(_ context: ChannelHandlerContext, after delay: TimeAmount) {
        cancelBodyWatch()
        let channel = context.channel
        bodyTimer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
            bodyTimer = nil
            guard case .readingBody(let bytes, _) = state else { return }
            let waiting = waited + (waitingSince.map { context.eventLoop.now - $0 } ?? .zero)
            let late = waiting - limits.bodyGrace
            let owed = Int64(limits.minimumBodyRate) * max(0, late.nanoseconds) / 1_000_000_000
            if Int64(bytes) < owed {
                channel.close(promise: nil)
            } else {
                watchBody(context, after: .seconds(1))
            }
        }
    }

    /// The connection closes `limit` from now unless a request begins first.
    private func arm(_ context: ChannelHandlerContext, _ limit: TimeAmount) {
        cancelBodyWatch()
        let expiry = context.eventLoop.now + limit
        self.expiry = expiry
        // A timer that fires by then looks again; only a later one is moved.
        if deadlineTimer != nil, timerFiresAt <= expiry { return }
        deadlineTimer?.cancel()
        scheduleDeadline(context, at: expiry)
    }

    private func scheduleDeadline(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        timerFiresAt = deadline
        let channel = context.channel
        deadlineTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            deadlineTimer = nil
            guard let expiry else { return }
            if expiry <= context.eventLoop.now {
                channel.close(promise: nil)
            } else {
                scheduleDeadline(context, at: expiry)
            }
        }
    }

    private func cancelBodyWatch() {
        guard let bodyTimer else { return }
        bodyTimer.cancel()
        self.bodyTimer = nil
    }

    private func cancelTimers() {
        expiry = nil
        deadlineTimer?.cancel()
        deadlineTimer = nil
        cancelBodyWatch()
    }
}
