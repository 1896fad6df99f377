@testable import FeedServer
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import ServerTestSupport
import Testing

/// A connection's deadlines on an `EmbeddedChannel`, whose clock the test
/// moves: the head limit, the keep-alive idle limit, and none while a request
/// is handled. Each request moves the expiry without rescheduling its timer
/// (issue #41), so the timer set after one response must look again when it
/// fires and find the later request's deadline.
struct RequestDeadlineTests {
    private static let limits = RequestDeadline.Limits(headLimit: .seconds(1), idleLimit: .seconds(6), bodyGrace: .seconds(10), minimumBodyRate: 100)

    private static func connected() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: RequestDeadline(limits: limits))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        return channel
    }

    private static func request(_ channel: EmbeddedChannel) throws {
        try channel.writeInbound(HTTPRequestPart.head(HTTPRequest(method: .get, scheme: "http", authority: "x", path: "/healthz")))
        try channel.writeInbound(HTTPRequestPart.end(nil))
    }

    private static func respond(_ channel: EmbeddedChannel) throws {
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
    }

    @Test func aConnectionWithoutAHeadClosesAtTheHeadLimit() throws {
        let channel = try Self.connected()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(900))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(200))
        #expect(!channel.isActive)
    }

    @Test func aKeepAliveConnectionIdlesFromItsLastResponse() throws {
        let channel = try Self.connected()
        try Self.request(channel)
        try Self.respond(channel)                                       // t = 0: idle until 6
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        try Self.request(channel)
        try Self.respond(channel)                                       // t = 2: idle until 8
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))          // t = 7: the first timer fired at 6 and waits again
        #expect(channel.isActive, "closed at the first response's idle end, not the last's")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1_500)) // t = 8.5
        #expect(!channel.isActive)
    }

    @Test func aRequestBeingHandledHasNoDeadlineUntilItsResponse() throws {
        let channel = try Self.connected()
        try Self.request(channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        #expect(channel.isActive, "a slow handler is not the client's fault")
        try Self.respond(channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)
    }
}
