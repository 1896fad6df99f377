@testable import CountdownStore
@testable import FeedServer
import Foundation
import FoundationXML
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Subscriptions
import Synchronization
import Testing
import TestSupport
import TminusServer

/// The findings of the safe-on-the-internet issue, one regression test each,
/// named after what an outsider could do before the fix.
struct InternetSafetyTests {
    /// A local server that plays a hostile or broken calendar source.
    static let passwd = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"

    // MARK: 1. long ?tz= values

    @Test func longTzValueIsRefusedWithoutALookup() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            let long = String(repeating: "a/", count: 16_000)
            let (response, body) = try await client.text("/feeds/family.json?tz=\(long)")
            #expect(response.status == .badRequest && body.contains("at most 64"))
        }
    }

    // MARK: 4 and 8. /healthz

    @Test(.enabled(if: Timing.isMeaningful, Timing.skipReason)) func healthzLeaksNothingAndRunsNoQuery() async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        let secret = "private-key=s3cr3t-0123456789"
        try await SourceServer.serving { router in
            router.get("calendar.ics") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: Self.passwd))) }
        }.test(.live) { source in
            let port = try #require(source.port)
            try Data("""
                name: Private
                public: false
                sources:
                  - url: http://127.0.0.1:\(port)/calendar.ics?\(secret)
                  - file: ../../../../../../../../etc/passwd

                """.utf8).write(to: fixture.feeds.appendingPathComponent("private.yaml"))
            try await fixture.withServer(adjust: { _ in }) { client, parts in
                _ = try await client.execute(uri: "/api/feeds/private/refresh", method: .post, headers: fixture.admin)
                // The once-a-second poll may query while a request is in flight: a health
                // check that ran a query would show it on every try, not on some.
                var queriedEveryTime = true
                for _ in 0..<5 where queriedEveryTime {
                    let before = parts.sqlite.statementCount
                    let (response, body) = try await client.text("/healthz")
                    #expect(response.status == .ok)
                    #expect(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String]
                                == ["status": "degraded", "see": "GET /api/health with the admin token names what is wrong"],
                            "only the status and where the detail is, nothing of the server's: \(body)")
                    queriedEveryTime = parts.sqlite.statementCount != before
                }
                #expect(!queriedEveryTime, "a health check runs no query")

                let unauthorised = try await client.execute(uri: "/api/health", method: .get)
                #expect(unauthorised.status == .unauthorized)
                let detail = String(buffer: try await client.execute(uri: "/api/health", method: .get, headers: fixture.admin).body)
                #expect(detail.contains("\"sources\""), "the admin sees the sources: \(detail)")
                #expect(!detail.contains("root:x") && !detail.contains("/bin/bash"), "no fetched or read bytes are echoed: \(detail)")
            }
        }
    }

    @Test func failedURLImportDoesNotEchoTheFetchedBody() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await SourceServer.serving { router in
            router.get("passwd") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: Self.passwd))) }
        }.test(.live) { source in
            let port = try #require(source.port)
            try await fixture.withServer { client in
                let response = try await client.execute(uri: "/api/feeds/family/import", method: .post,
                                                        headers: fixture.admin.merging([.contentType: "application/json"]),
                                                        body: ByteBuffer(string: #"{"url": "http://127.0.0.1:\#(port)/passwd"}"#))
                let body = String(buffer: response.body)
                #expect(response.status == .unprocessableContent)
                #expect(body.contains("BEGIN:VCALENDAR") && !body.contains("root"), "says what is wrong without quoting it: \(body)")
            }
        }
    }

    // MARK: 5. rules that never end

    /// Each of these kept both cores busy (or the server unresponsive) once a
    /// feed holding it was read. Now the one without an instance is refused with a
    /// diagnostic naming the RRULE, a huge COUNT is capped, the sparse SECONDLY
    /// rule (every second of 28 February) is expanded day by day (issue #61, 2),
    /// and the feed answers.
    @Test func rulesThatNeverEndDoNotStallTheFeed() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            for (index, rule) in ["FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=SECONDLY;COUNT=2000000000",
                                  "FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=28"].enumerated() {
                let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:hostile-\(index)\r\n"
                    + "DTSTAMP:20260101T000000Z\r\nSUMMARY:Hostile \(index)\r\nDTSTART:20260301T000000Z\r\nRRULE:\(rule)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
                let imported = try await client.execute(uri: "/api/feeds/family/import", method: .post,
                                                        headers: fixture.admin.merging([.contentType: "text/calendar"]), body: ByteBuffer(string: calendar))
                let body = String(buffer: imported.body)
                #expect(imported.status == .ok, "\(rule): \(body)")
                if rule.contains("BYMONTHDAY=30") { #expect(body.contains("RRULE"), "the refusal names the property: \(body)") }
                let (json, _) = try await client.text("/feeds/family.json")
                #expect(json.status == .ok)
                let (page, _) = try await client.text("/feeds/family")
                #expect(page.status == .ok)
            }
            #expect(try await client.text("/healthz").0.status == .ok)
        }
    }

    // MARK: a full disk

    /// With the file unable to grow, an import and an admin write fail with 507
    /// and say why; the feed is served as before and the server keeps running.
    /// Issue #27, 8: with the database files deleted under it, the server
    /// answered writes with 201, said ok, and lost everything at restart.
    @Test func aDeletedDatabaseFileIsNoticedAndWritesAreRefused() async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            #expect(try await parts.store.check(.cheap).problem == nil)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: fixture.databasePath + suffix) }
            #expect(try await parts.store.check(.cheap).problem?.contains("was deleted") == true)
            #expect(try await client.text("/healthz").1 == #"{"status":"ok"}"#, "not noticed before the poll looks")
            await catalogPoll(parts.dependencies).tick(1)
            let healthz = try await client.text("/healthz").1
            #expect(healthz.contains(#""status":"degraded""#) && healthz.contains("health with the admin token names what is wrong"), "\(healthz)")
            let detail = String(buffer: try await client.execute(uri: "/api/health", method: .get, headers: fixture.admin).body)
            #expect(detail.contains("was deleted while the server ran"), "\(detail)")
            let made = try await client.execute(uri: "/api/feeds/family/countdowns", method: .post, headers: fixture.admin,
                                                body: ByteBuffer(string: #"{"title":"Lost","date":"2027-01-01"}"#))
            #expect(made.status == .serviceUnavailable, "\(made.status)")
            #expect(String(buffer: made.body).contains("was deleted"))
            #expect(try await client.text("/feeds/family.ics").0.status == .ok, "reads go on from memory")
        }
    }

    @Test func fullDiskAnswers507AndChangesNothing() async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let (_, before) = try await client.text("/feeds/family.ics")
            try parts.sqlite.limitGrowth(toPages: 0)
            var events = ""
            for index in 0..<300 {
                events += "BEGIN:VEVENT\r\nUID:bulk-\(index)@test\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:\(String(repeating: "Bulk ", count: 40))\(index)\r\n"
                    + "DTSTART;VALUE=DATE:20270101\r\nEND:VEVENT\r\n"
            }
            let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n\(events)END:VCALENDAR\r\n"
            let imported = try await client.execute(uri: "/api/feeds/family/import", method: .post,
                                                    headers: fixture.admin.merging([.contentType: "text/calendar"]), body: ByteBuffer(string: calendar))
            #expect(imported.status.code == 507)
            #expect(String(buffer: imported.body).contains("cannot grow"))
            let (after, body) = try await client.text("/feeds/family.ics")
            #expect(after.status == .ok && body == before, "the previous data is served unchanged")
            #expect(try await client.text("/healthz").0.status == .ok, "the server keeps running")
        }
    }

    // MARK: 10. stored XSS through images and links

    @Test func svgWithScriptIsRefusedAtUpload() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            let id = try await Self.firstID(client, fixture)
            let svg = #"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>"#
            let response = try await client.execute(uri: "/api/countdowns/\(id)/image", method: .put, headers: fixture.admin, body: ByteBuffer(string: svg))
            #expect(response.status == .unprocessableContent && String(buffer: response.body).contains("<script>"))
            let onload = #"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>"#
            let second = try await client.execute(uri: "/api/countdowns/\(id)/image", method: .put, headers: fixture.admin, body: ByteBuffer(string: onload))
            #expect(second.status == .unprocessableContent && String(buffer: second.body).contains("onload"))
        }
    }

    @Test func htmlHoldingAnSvgCommentIsNotAnImage() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            let id = try await Self.firstID(client, fixture)
            let html = "<html><!-- <svg --><body><script>alert(1)</script></body></html>"
            let response = try await client.execute(uri: "/api/countdowns/\(id)/image", method: .put, headers: fixture.admin, body: ByteBuffer(string: html))
            #expect(response.status == .unsupportedMediaType)
        }
    }

    @Test func uploadedImagesAreServedSandboxed() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            let id = try await Self.firstID(client, fixture)
            let svg = #"<?xml version="1.0"?><!-- a badge --><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><rect width="2" height="2" fill="url(#g)"/></svg>"#
            let uploaded = try await client.execute(uri: "/api/countdowns/\(id)/image", method: .put, headers: fixture.admin, body: ByteBuffer(string: svg))
            #expect(uploaded.status == .ok, "a clean SVG is accepted: \(String(buffer: uploaded.body))")
            let json = try JSONSerialization.jsonObject(with: Data(buffer: uploaded.body)) as! [String: Any]
            let url = try #require(json["image"] as? String)
            let image = try await client.execute(uri: String(url.dropFirst("http://127.0.0.1:8080".count)), method: .get)
            #expect(image.headers[.contentSecurityPolicy] == "default-src 'none'; style-src 'unsafe-inline'; sandbox")
            #expect(image.headers[HTTPField.Name("Cross-Origin-Resource-Policy")!] == "same-site")
        }
    }

    @Test func javascriptLinksAreRefused() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            let id = try await Self.firstID(client, fixture)
            for (field, value) in [("image", "javascript:alert(1)"), ("url", "javascript:alert(1)"), ("url", "data:text/html,<script>"),
                                   ("image", "file:///etc/passwd")] {
                let response = try await client.execute(uri: "/api/countdowns/\(id)", method: .patch,
                                                        headers: fixture.admin.merging([.contentType: "application/json"]),
                                                        body: ByteBuffer(string: #"{"\#(field)": "\#(value)"}"#))
                #expect(response.status == .unprocessableContent, "\(field) \(value)")
                #expect(String(buffer: response.body).contains(field))
            }
            let fine = try await client.execute(uri: "/api/countdowns/\(id)", method: .patch,
                                                headers: fixture.admin.merging([.contentType: "application/json"]),
                                                body: ByteBuffer(string: #"{"url": "https://example.org/party"}"#))
            #expect(fine.status == .ok)
        }
    }

    // MARK: 13. control characters

    @Test func controlCharactersInATitleLeaveTheCardWellFormed() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            let created = try await client.execute(uri: "/api/feeds/family/countdowns", method: .post,
                                                   headers: fixture.admin.merging([.contentType: "application/json"]),
                                                   body: ByteBuffer(string: #"{"title": "Bell\u0007 \u0001and\u001b book", "date": "2027-01-01"}"#))
            #expect(created.status == .created || created.status == .ok)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: created.body)) as! [String: Any]
            #expect(json["title"] as? String == "Bell and book")
            let id = try #require(json["id"] as? Int)
            let (card, svg) = try await client.text("/feeds/family/\(id).svg")
            #expect(card.status == .ok)
            #expect(XMLParser(data: Data(svg.utf8)).parse(), "the card is well-formed XML")
        }
    }

    // MARK: 11. SSRF

    @Test func fetchesFromPrivateAddressesAreRefusedByDefault() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await SourceServer.serving { router in
            router.get("calendar.ics") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: ServerFixture.family))) }
        }.test(.live) { source in
            let port = try #require(source.port)
            try await fixture.withServer(adjust: { $0.allowPrivateSources = false }) { client, _ in
                for url in ["http://127.0.0.1:\(port)/calendar.ics", "http://2130706433:\(port)/calendar.ics",
                            "http://169.254.169.254/latest/meta-data/", "http://[::1]:\(port)/calendar.ics", "file:///etc/passwd"] {
                    let response = try await client.execute(uri: "/api/feeds/family/import", method: .post,
                                                            headers: fixture.admin.merging([.contentType: "application/json"]),
                                                            body: ByteBuffer(string: #"{"url": "\#(url)"}"#))
                    let body = String(buffer: response.body)
                    #expect(response.status == .unprocessableContent || response.status == .badRequest, "\(url): \(response.status)")
                    #expect(body.contains("loopback") || body.contains("link-local") || body.contains("http"), "names the rule: \(body)")
                }
            }
            try await fixture.withServer(adjust: { $0.allowPrivateSources = true }) { client, _ in
                let response = try await client.execute(uri: "/api/feeds/family/import", method: .post,
                                                        headers: fixture.admin.merging([.contentType: "application/json"]),
                                                        body: ByteBuffer(string: #"{"url": "http://127.0.0.1:\#(port)/calendar.ics"}"#))
                #expect(response.status == .ok, "--allow-private-sources opts in")
            }
        }
    }

    @Test(.enabled(if: Timing.isMeaningful, Timing.skipReason)) func redirectsStopAfterFive() async throws {
        let hops = Atomic<Int>(0)
        try await SourceServer.serving { router in
            router.get("hop/{n}") { _, context in
                hops.add(1, ordering: .relaxed)
                let next = (context.parameters.get("n", as: Int.self) ?? 0) + 1
                return Response(status: .found, headers: [.location: "/hop/\(next)"])
            }
        }.test(.live) { source in
            let port = try #require(source.port)
            // A generous deadline: under a full parallel test run the hops took over 10 s once,
            // and the fetch then failed on time before the redirect limit was reached.
            let fetcher = CalendarFetcher(maxBytes: 1 << 20, timeout: .seconds(120), allowPrivate: true)
            await #expect(throws: CalendarFetcher.Failure.self) { try await fetcher.fetch("http://127.0.0.1:\(port)/hop/0") }
            #expect(hops.load(ordering: .relaxed) == CalendarFetcher.maxRedirects + 1)
        }
    }

    /// Every hop, redirects included, goes through this check on the resolved address.
    @Test func nonPublicAddressesAreRecognised() throws {
        let refused = ["127.0.0.1": "loopback", "10.1.2.3": "private", "172.20.0.1": "private", "192.168.1.10": "private",
                       "169.254.169.254": "link-local", "0.0.0.0": "unspecified", "100.64.0.1": "shared (carrier-grade NAT)",
                       "224.0.0.1": "multicast", "::1": "loopback", "::": "unspecified", "fe80::1": "link-local",
                       "fd00::1": "private (unique local)", "::ffff:127.0.0.1": "loopback", "ff02::1": "multicast"]
        for (address, reason) in refused {
            #expect(AddressPolicy.nonPublicReason(address)?.hasPrefix(reason) == true, "\(address)")
        }
        // Issue #27, 11: IPv6 forms that carry an IPv4 address are judged by it.
        let embedded = ["64:ff9b::7f00:1": "loopback (127.0.0.1 inside a NAT64 address)",
                        "64:ff9b::a9fe:a9fe": "link-local (169.254.169.254 inside a NAT64 address)",
                        "::ffff:0:a00:1": "private (10.0.0.1 inside a translated address)",
                        "::ffff:7f00:1": "loopback (127.0.0.1 inside a mapped address)",
                        "2002:c0a8:101::1": "private (192.168.1.1 inside a 6to4 address)",
                        "2002:7f00:1::": "loopback (127.0.0.1 inside a 6to4 address)",
                        "2001:0:4136:e378:8000:63bf:80ff:fffe": "loopback (127.0.0.1 inside a Teredo address)",
                        "64:ff9b:1::1": "local NAT64", "100::1": "discard-only"]
        for (address, reason) in embedded {
            #expect(AddressPolicy.nonPublicReason(address) == reason, "\(address)")
        }
        for address in ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "172.32.0.1", "64:ff9b::5db8:d822", "2002:5db8:d822::1"] {
            #expect(AddressPolicy.nonPublicReason(address) == nil, "\(address)")
        }
        let policy = AddressPolicy(allowPrivate: false)
        #expect(throws: AddressPolicy.Refusal.self) { try policy.resolve("localhost", port: 80) }
        #expect(throws: AddressPolicy.Refusal.self) { try policy.resolve("2130706433", port: 80) }
        #expect(try AddressPolicy(allowPrivate: true).resolve("127.0.0.1", port: 80) == "127.0.0.1")
    }

    // MARK: 7. a body sent a byte at a time

    // MARK: 2. idle and half-sent connections

    @Test(.enabled(if: Timing.isMeaningful, Timing.skipReason)) func halfSentRequestIsClosedAtTheHeadDeadline() async throws {
        let fixture = try ServerFixture(transport: .live)
        try fixture.feed("family", calendar: ServerFixture.family)
        // Two seconds, not one: on a loaded machine a well-formed request must not miss it.
        try await fixture.withServer(adjust: { $0.connections.requestHeadTimeout = .seconds(2) }) { client, _ in
            let port = try #require(client.port)
            // The bound tells the deadline's close from none at all (the test server's idle time is 10 minutes,
            // the exchange gives up at 40 s): under load the close was seen after more than the 5 s asked before.
            let (closed, _) = try await Self.exchange(port: port, send: "GET /feeds/family.ics HTTP/1.1\r\nHost: x\r\n", timeout: 40)
            #expect(closed < 30, "closed after \(closed) s")
            // (The test client's own keep-alive connection was idle for as long, so it is closed too: ask on a new one.)
            let (_, answer) = try await Self.exchange(port: port, send: "GET /feeds/family.ics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 200"), "other clients are served")
        }
    }

    /// Issue #27, 1: the head deadline stopped at the headers, so a client
    /// that announced 4,000 bytes and sent one every 9 s held its connection
    /// for ever. A body must now keep up a minimum rate once its grace is over.
    @Test(.enabled(if: Timing.isMeaningful, Timing.skipReason)) func aDrippedBodyIsClosedWhenItFallsBelowTheMinimumRate() async throws {
        let fixture = try ServerFixture(transport: .live)
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer(adjust: { $0.connections.bodyGrace = .seconds(2); $0.connections.minimumBodyRate = 100 }) { client, _ in
            let port = try #require(client.port)
            let head = "POST /app/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\n"
            let (closed, answer) = try await Self.exchange(port: port, send: head + "csrf=", timeout: 40)
            #expect(closed < 30, "closed after \(closed) s (a close, not the exchange giving up)")
            #expect(answer.isEmpty, "\(answer)")
            let admin = "POST /api/feeds HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 4000\r\n\r\n" + String(repeating: " ", count: 4_000)
            let (seconds, whole) = try await Self.exchange(port: port, send: admin)
            #expect(whole.hasPrefix("HTTP/1.1 401"), "a body sent at once is read and answered: '\(whole.prefix(80))' after \(seconds) s")
        }
    }

    /// A keep-alive connection idles for the idle timeout, not the shorter head
    /// deadline (it was closed at 20 s while the README said 30).
    @Test(.enabled(if: Timing.isMeaningful, Timing.skipReason)) func anIdleKeepAliveConnectionLastsTheIdleTimeout() async throws {
        let fixture = try ServerFixture(transport: .live)
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer(adjust: { $0.connections.requestHeadTimeout = .seconds(1); $0.connections.idleTimeout = .seconds(4) }) { client, _ in
            let port = try #require(client.port)
            // The upper bound only tells a close from none (the exchange gives up at 40 s):
            // on a loaded 2-core machine the close was seen 10.4 s after a 4 s timeout.
            let (closed, answer) = try await Self.exchange(port: port, send: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", timeout: 40)
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            #expect(closed > 3 && closed < 30, "idle for \(closed) s after the response")
        }
    }

    /// `Loopback.exchange` on a thread of its own (never blocking the cooperative
    /// pool, which the servers of other tests need), failing when nothing listens.
    static func exchange(port: Int, send: String, timeout: Int = 15) async throws -> (seconds: Double, answer: String) {
        guard let result = await Loopback.exchangeOffPool(port: port, send: send, timeout: timeout) else { throw CocoaError(.fileReadUnknown) }
        return result
    }

    static func firstID(_ client: any TestClientProtocol, _ fixture: ServerFixture) async throws -> Int {
        let list = try await client.execute(uri: "/api/feeds/family/countdowns", method: .get, headers: fixture.admin)
        let json = try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as! [String: Any]
        return try #require(((json["countdowns"] as? [[String: Any]])?.first?["id"]) as? Int)
    }
}

extension HTTPFields {
    func merging(_ other: HTTPFields) -> HTTPFields {
        var copy = self
        for field in other { copy[field.name] = field.value }
        return copy
    }
}
