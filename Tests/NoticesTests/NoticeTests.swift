import Clocks
import Crypto
@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Subscriptions
import Synchronization
import Testing

/// Issue #26: a feed tells webhooks and ntfy when a countdown reaches a
/// milestone day and when its content changes; deliveries are signed,
/// retried, logged, and never block a request.
struct NoticeTests {
    /// What a receiver saw: path, headers and body of each POST.
    final class Received: Sendable {
        struct Request: Sendable {
            var path: String
            var headers: HTTPFields
            var body: [UInt8]
            var query: String? = nil
        }

        let requests = Mutex<[Request]>([])
        /// How many POSTs to /flaky still fail with 503.
        let failures = Mutex(2)

        var all: [Request] { requests.withLock { $0 } }
    }

    static func receiver(_ received: Received) -> some ApplicationProtocol {
        let router = Router()
        let record: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let body = try await request.body.collect(upTo: 1 << 20)
            let path = request.uri.path
            if path == "/flaky", received.failures.withLock({ count in defer { count -= 1 }; return count > 0 }) {
                return Response(status: .serviceUnavailable)
            }
            received.requests.withLock { $0.append(.init(path: path, headers: request.headers, body: Array(buffer: body), query: request.uri.query)) }
            return Response(status: path == "/gone" ? .gone : .ok)
        }
        router.post("/", use: record)
        router.post("**", use: record)
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// 2026-11-22 is the fixture's today: an exam in 3 days and a trip in 7 are milestones, the concert in 5 is not.
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//tminus tests//notices//EN\r
        BEGIN:VEVENT\r
        UID:exam@notice.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20261125\r
        SUMMARY:Maths final\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:concert@notice.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20261127\r
        SUMMARY:Concert\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:trip@notice.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20261129\r
        SUMMARY:Trip\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    /// A server whose feed `exams` tells a webhook of the receiver at each of
    /// `paths` of its 3-day milestones, signed with one secret.
    static func webhooks(port: Int, paths: [String]) throws -> ServerFixture {
        let fixture = try ServerFixture()
        try Data("s3cret\n".utf8).write(to: fixture.directory.appendingPathComponent("hook.secret"))
        let targets = paths.map { "  - webhook: http://127.0.0.1:\(port)\($0)\n    secretFile: ../hook.secret\n    milestones: [3]\n" }.joined()
        try fixture.feed("exams", calendar: calendar, yaml: "notify:\n" + targets)
        return fixture
    }

    /// One round of the notice service, run by the test: the watcher looks at
    /// every feed once, and the outbox delivers (or gives up) what that posted.
    static func settle(_ parts: ServerFixture.Parts) async {
        await parts.dependencies.notices.tick()
        await parts.dependencies.notices.outbox.idle()
    }

    @Test func webhooksAreSignedAndToldOfMilestonesAndChangesAndNtfyGetsTheText() async throws {
        let received = Received()
        try await Self.receiver(received).test(.live) { receiver in
            let port = try #require(receiver.port)
            let fixture = try ServerFixture(backend: .sqlite)
            let secret = "webhook-secret-\(UInt32.random(in: 0...UInt32.max))"
            try Data((secret + "\n").utf8).write(to: fixture.directory.appendingPathComponent("hook.secret"))
            try fixture.feed("exams", calendar: Self.calendar, yaml: """
                timeZone: Europe/Budapest
                notify:
                  - webhook: http://127.0.0.1:\(port)/hook?key=not-in-logs
                    secretFile: ../hook.secret
                  - ntfy: http://127.0.0.1:\(port)/exams-7f3k
                    on: [milestones]
                    milestones: [3]
                """)
            try await fixture.withServer(adjust: { $0.noticeBackoff = .milliseconds(50) }) { client, parts in
                await Self.settle(parts)
                let hooks = received.all.filter { $0.path == "/hook" }
                let bodies = try hooks.map { try #require(try JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any]) }
                #expect(Set(bodies.compactMap { $0["message"] as? String }) == ["Maths final: 3 days", "Trip: 7 days"])
                #expect(bodies.allSatisfy { $0["type"] as? String == "milestone" && $0["feed"] as? String == "exams" && $0["day"] as? String == "2026-11-22" })
                for hook in hooks {
                    let timestamp = try #require(hook.headers[HTTPField.Name("Tminus-Timestamp")!])
                    var signed = Array("\(timestamp).".utf8)
                    signed += hook.body
                    let expected = "sha256=" + HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Data(secret.utf8)))
                        .map { String(format: "%02x", $0) }.joined()
                    #expect(hook.headers[HTTPField.Name("Tminus-Signature")!] == expected, "the HMAC of the timestamp and the body, under the secret")
                    #expect(hook.headers[HTTPField.Name("Tminus-Event")!] == "milestones")
                    #expect(hook.headers[HTTPField.Name("Tminus-Delivery")!]?.count == 64)
                }
                // ntfy: JSON to the server's root naming the topic; only the 3-day milestone.
                let ntfy = try #require(received.all.first { $0.path == "/" })
                let message = try #require(try JSONSerialization.jsonObject(with: Data(ntfy.body)) as? [String: Any])
                #expect(message["topic"] as? String == "exams-7f3k" && message["message"] as? String == "Maths final: 3 days"
                        && message["title"] as? String == "Maths final")
                #expect(received.all.filter { $0.path == "/" }.count == 1, "the 7-day one is not one of ntfy's milestones")

                // A change: one countdown added through the API, one notice naming it.
                var json = fixture.admin
                json[.contentType] = "application/json"
                let added = try await client.execute(uri: "/api/feeds/exams/countdowns", method: .post, headers: json,
                                                     body: ByteBuffer(string: #"{"title":"Physics oral","date":"2027-01-19"}"#))
                #expect(added.status == .created)
                await Self.settle(parts)
                let change = try #require(received.all.first { $0.headers[HTTPField.Name("Tminus-Event")!] == "changes" })
                let body = try #require(try JSONSerialization.jsonObject(with: Data(change.body)) as? [String: Any])
                #expect(body["message"] as? String == "Exams: 1 added")
                #expect((body["added"] as? [[String: Any]])?.first?["title"] as? String == "Physics oral")
                #expect(received.all.filter { $0.path == "/" }.count == 1, "ntfy listens to milestones only")

                let health = try await client.text("/api/health", headers: fixture.admin).1
                let lanes = try #require((try JSONSerialization.jsonObject(with: Data(health.utf8)) as? [String: Any])?["notices"] as? [[String: Any]])
                #expect(Set(lanes.compactMap { $0["target"] as? String }) == ["webhook http://127.0.0.1:\(port)/hook", "ntfy http://127.0.0.1:\(port)/exams-7f3k"])
                #expect(!health.contains("not-in-logs"), "a target is named without its query string")
                #expect(lanes.allSatisfy { ($0["log"] as? [[String: Any]])?.allSatisfy { $0["outcome"] as? String == "delivered" } == true })
            }
            // A restart sends today's milestones again to no one: they were claimed in the store.
            let before = received.all.count
            try await fixture.withServer(adjust: { _ in }) { _, parts in await Self.settle(parts) }
            #expect(received.all.count == before, "each notice is sent once, across restarts")
        }
    }

    /// The second audit: lanes were keyed by the label, which drops the query
    /// string, so `/hook?who=A` and `/hook?who=B` made one lane: B got every
    /// notice twice, signed with B's secret, and A nothing.
    @Test func twoWebhooksThatDifferOnlyInTheirQueryEachGetTheirOwnNotices() async throws {
        let received = Received()
        try await Self.receiver(received).test(.live) { receiver in
            let port = try #require(receiver.port)
            let fixture = try ServerFixture(backend: .sqlite)
            for who in ["a", "b"] { try Data("secret-of-\(who)\n".utf8).write(to: fixture.directory.appendingPathComponent("\(who).secret")) }
            try fixture.feed("exams", calendar: Self.calendar, yaml: """
                timeZone: Europe/Budapest
                notify:
                  - webhook: http://127.0.0.1:\(port)/hook?who=A
                    secretFile: ../a.secret
                    on: [milestones]
                    milestones: [3]
                  - webhook: http://127.0.0.1:\(port)/hook?who=B
                    secretFile: ../b.secret
                    on: [milestones]
                    milestones: [3]
                """)
            try await fixture.withServer(adjust: { $0.noticeBackoff = .milliseconds(50) }) { client, parts in
                await Self.settle(parts)
                let health = try await client.text("/api/health", headers: fixture.admin).1
                let lanes = try #require((try JSONSerialization.jsonObject(with: Data(health.utf8)) as? [String: Any])?["notices"] as? [[String: Any]])
                #expect(lanes.compactMap { $0["target"] as? String }.sorted()
                        == ["webhook http://127.0.0.1:\(port)/hook", "webhook http://127.0.0.1:\(port)/hook #2"], "two lanes, told apart by a number")
                #expect(!health.contains("who="), "no query string in health")
            }
            #expect(received.all.count == 2, "one notice each, not two to one of them")
            for (who, query) in [("a", "who=A"), ("b", "who=B")] {
                let hook = try #require(received.all.first { $0.query == query }, "\(query) got its notice")
                let timestamp = try #require(hook.headers[HTTPField.Name("Tminus-Timestamp")!])
                let expected = "sha256=" + HMAC<SHA256>.authenticationCode(for: Array("\(timestamp).".utf8) + hook.body,
                                                                            using: SymmetricKey(data: Data("secret-of-\(who)".utf8)))
                    .map { String(format: "%02x", $0) }.joined()
                #expect(hook.headers[HTTPField.Name("Tminus-Signature")!] == expected, "signed with \(who)'s own secret")
            }
        }
    }

    @Test func aFailingTargetIsRetriedReportedAndGivenUpWhenItSaysGone() async throws {
        let received = Received()
        try await Self.receiver(received).test(.live) { receiver in
            let port = try #require(receiver.port)
            let fixture = try Self.webhooks(port: port, paths: ["/flaky", "/gone"])
            try await fixture.withServer(adjust: { $0.noticeBackoff = .milliseconds(50) }) { client, parts in
                // The flaky hook gets through on its third attempt; the gone one is given up at once.
                await Self.settle(parts)
                let health = try #require(try JSONSerialization.jsonObject(with: Data(try await client.text("/api/health", headers: fixture.admin).1.utf8))
                    as? [String: Any])
                let lanes = try #require(health["notices"] as? [[String: Any]])
                let flaky = try #require(lanes.first { ($0["target"] as? String)?.hasSuffix("/flaky") == true })
                let outcomes = (flaky["log"] as? [[String: Any]])?.compactMap { $0["outcome"] as? String }
                #expect(outcomes == ["retrying", "retrying", "delivered"] && flaky["failing"] as? Bool == false)
                let gone = try #require(lanes.first { ($0["target"] as? String)?.hasSuffix("/gone") == true })
                #expect(gone["failing"] as? Bool == true && (gone["lastError"] as? String)?.contains("410") == true)
                #expect((gone["log"] as? [[String: Any]])?.count == 1, "a 410 is not retried")
                #expect(health["status"] as? String == "degraded")
                #expect(try await client.text("/healthz").1.contains("degraded"))

                // The web app's feed page shows each target, the failing one's error, and the delivery log.
                try await WebAppSignIn.setPassword(parts.store)
                var browser = Browser(client: client)
                try await browser.signIn(WebAppSignIn.password)
                let page = try await browser.get("/app/feeds/exams")
                #expect(page.status == .ok && page.text.contains("id=\"notices-heading\">Notices</h2>"))
                #expect(page.text.contains("<code>webhook http://127.0.0.1:\(port)/gone</code>") && page.text.contains("Failing: it answered 410"))
                let notices = String(page.text.drop { _ in false }.components(separatedBy: "id=\"notices\"").last ?? "")
                #expect(notices.contains("<td>gave up</td>") && notices.contains("<td>delivered</td>") && notices.contains("1 delivered"), "\(notices.prefix(3000))")
            }
        }
    }

    /// The retries of a failing target wait 10 s, then 30 s, on the server's
    /// wait clock: held by the test (`TestClock`) and moved on by hand.
    @Test func retriesWaitTheirBackoffOnTheServersClock() async throws {
        let received = Received()
        try await Self.receiver(received).test(.live) { receiver in
            let port = try #require(receiver.port)
            let fixture = try Self.webhooks(port: port, paths: ["/flaky"])
            let clock = TestClock()
            try await fixture.withServer(adjust: { $0.noticeBackoff = .seconds(10); $0.waitClock = clock }) { _, parts in
                let notices = parts.dependencies.notices
                func outcomes() async -> [String] {
                    await notices.outbox.quiescent()
                    return notices.outbox.statuses.first?.log.map(\.outcome.rawValue) ?? []
                }
                await notices.tick()
                #expect(await outcomes() == ["retrying"], "the first attempt failed (503)")
                await clock.advance(by: .seconds(9))
                #expect(await outcomes() == ["retrying"], "9 s: still waiting")
                await clock.advance(by: .seconds(1))
                #expect(await outcomes() == ["retrying", "retrying"], "10 s: the second attempt, failed too")
                await clock.advance(by: .seconds(29))
                #expect(await outcomes() == ["retrying", "retrying"], "the next wait is three times longer")
                await clock.advance(by: .seconds(1))
                #expect(await outcomes() == ["retrying", "retrying", "delivered"])
                #expect(received.all.filter { $0.path == "/flaky" }.count == 1)
            }
        }
    }

    @Test(arguments: [
        ("- webhook: https://example.org/hook\n    secret: abc", "a secret is never written in a feed file"),
        ("- webhook: https://example.org/hook", "needs exactly one of secretFile or secretEnv"),
        ("- ntfy: https://ntfy.sh/\n    on: [milestones]", "must be a topic's http(s) URL"),
        ("- mqtt: http://broker.local", "must be an mqtt:// or mqtts:// URL"),
        ("- mqtt: mqtt://broker.local\n    topic: /bad", "must be letters, digits"),
        ("- webhook: https://example.org/hook\n    ntfy: https://ntfy.sh/x", "needs exactly one of webhook:, ntfy: or mqtt:"),
        ("- ntfy: https://ntfy.sh/x\n    on: [sometimes]", "'sometimes' is not milestones or changes"),
    ])
    func aNoticeTargetThatCannotWorkIsADefinitionError(entry: String, message: String) {
        let problem = FeedDefinitionCheck.problem(in: "notify:\n  \(entry)\n")
        #expect(problem?.contains(message) == true, "\(problem ?? "accepted")")
    }
}
