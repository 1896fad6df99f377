@testable import Catalog
@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ServerTestSupport
import Subscriptions
import Synchronization
import Testing
import TestSupport

/// What a CDN or nginx `proxy_cache` in front of several replicas reads.
struct CDNHeadersTests {
    @Test func publicFeedsMayBeSharedAndPurgedTokenLinksMayNot() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            for path in ["/feeds/family.ics", "/feeds/family.json", "/feeds/family", "/feeds/family/countdown.ics"] {
                let (response, _) = try await client.text(path)
                let cacheControl = response.headers[.cacheControl] ?? ""
                #expect(cacheControl.hasPrefix("public, max-age=") && cacheControl.contains("s-maxage=")
                        && cacheControl.contains("stale-while-revalidate=") && cacheControl.contains("stale-if-error=86400"), "\(path): \(cacheControl)")
                #expect(response.headers[HTTPField.Name("Surrogate-Key")!] == "feed-family", "\(path)")
                // The 304 a CDN revalidates with carries the key too: each output is made with it (`Representation.forFeed`).
                let etag = try #require(response.headers[.eTag])
                let again = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified && again.headers[HTTPField.Name("Surrogate-Key")!] == "feed-family", "\(path) 304")
            }
            let created = try await client.execute(uri: "/api/feeds/family/tokens", method: .post, headers: fixture.admin)
            let secret = try #require((try JSONSerialization.jsonObject(with: Data(buffer: created.body)) as? [String: Any])?["secret"] as? String)
            for path in ["/t/\(secret)/feeds/family.ics", "/t/\(secret)/feeds/family.json"] {
                let (response, _) = try await client.text(path)
                let cacheControl = response.headers[.cacheControl] ?? ""
                #expect(cacheControl.hasPrefix("private, max-age=") && !cacheControl.contains("s-maxage"), "\(path): \(cacheControl)")
                #expect(response.headers[HTTPField.Name("Surrogate-Key")!] == nil, "a token link is never named for a purge")
            }
        }
    }

    /// A token link's copy keeps the feed's max-age: read from its Cache-Control byte by byte.
    @Test func aPrivateCopyKeepsTheMaxAgeOfItsCacheControl() {
        #expect(RenderSettings.maxAge(of: RenderSettings.sharedCacheControl(maxAge: 300)) == 300)
        #expect(RenderSettings.maxAge(of: "private,max-age=60") == 60)
        #expect(RenderSettings.maxAge(of: "public, s-maxage=30") == 0)
        #expect(RenderSettings.maxAge(of: "no-store") == 0)
        #expect(RenderSettings.maxAge(of: "max-age=99999999999999999999999") > 0)   // clamped, never trapping
        #expect(RenderSettings.maxAge(of: "s-maxage=30,  max-age=20") == 20)
        #expect(RenderSettings.maxAge(of: "public, no-max-age=7, max-age=8") == 8)
        #expect(RenderSettings.maxAge(of: "public,") == 0)
        #expect(RenderSettings.maxAge(of: "") == 0)
        let shared = Representation(bytes: Array("BEGIN:VCALENDAR".utf8), contentType: Representation.calendarType, lastModified: Date(),
                                    cacheControl: RenderSettings.sharedCacheControl(maxAge: 300))
        #expect(shared.privately().cacheControl == "private, max-age=300")
    }

    /// A feed's output is made with its key, so serving it publicly makes no
    /// headers again; bytes made without one, or for another feed, get the
    /// route's; a token link's copy has none.
    @Test func anOutputMadeForItsFeedKeepsItsKey() {
        let made = Representation(bytes: Array("BEGIN:VCALENDAR".utf8), contentType: Representation.calendarType, lastModified: Date(),
                                  cacheControl: RenderSettings.sharedCacheControl(maxAge: 300),
                                  feed: "family")
        #expect(made.forFeed("family").surrogateKey == "feed-family")
        #expect(made.forFeed("familyx").surrogateKey == "feed-familyx")
        #expect(made.forFeed("fam").surrogateKey == "feed-fam")
        #expect(made.privately().surrogateKey == nil && made.privately().cacheControl == "private, max-age=300")
        var changed = made
        changed.cacheControl = "private, no-store"
        #expect(changed.surrogateKey == "feed-family" && made.cacheControl.hasPrefix("public"), "a copy's change leaves the original as it was")
        let plain = Representation(bytes: [], contentType: Representation.calendarType, lastModified: Date(), cacheControl: "public, max-age=60")
        #expect(plain.surrogateKey == nil && plain.forFeed("family").surrogateKey == "feed-family")
    }

    /// A feed's `purge:` hook hears of every change: a POST naming the feed,
    /// its new revision, its surrogate key and its URLs.
    @Test func aChangeCallsTheFeedsPurgeHook() async throws {
        let calls = Calls()
        try await SourceServer.serving { router in
            router.post("purge") { request, _ in
                let body = try await request.body.collect(upTo: 1 << 16)
                calls.add(request.headers[HTTPField.Name("Surrogate-Key")!] ?? "", String(buffer: body))
                return Response(status: .noContent)
            }
        }.test(.live) { hook in
            let fixture = try ServerFixture()
            try fixture.feed("family", calendar: ServerFixture.family, yaml: "purge: http://127.0.0.1:\(try #require(hook.port))/purge")
            // The hook is on loopback, which only --allow-private-sources reaches.
            try await fixture.withServer(adjust: { $0.allowPrivateSources = true }) { client, _ in
                #expect(calls.all.isEmpty, "loading the feed at start purges nothing")
                let listed = try await client.execute(uri: "/api/feeds/family/countdowns", method: .get, headers: fixture.admin)
                let countdowns = try #require((try JSONSerialization.jsonObject(with: Data(buffer: listed.body)) as? [String: Any])?["countdowns"] as? [[String: Any]])
                let id = try #require(countdowns.first?["id"] as? Int)
                let edited = try await client.execute(uri: "/api/countdowns/\(id)", method: .patch, headers: fixture.admin,
                                                      body: ByteBuffer(string: #"{"title":"Renamed"}"#))
                #expect(edited.status == .ok)
                await calls.first.wait()
                let call = try #require(calls.all.first)
                #expect(call.key == "feed-family")
                let body = try #require(try JSONSerialization.jsonObject(with: Data(call.body.utf8)) as? [String: Any])
                #expect(body["feed"] as? String == "family" && body["surrogateKey"] as? String == "feed-family")
                #expect((body["urls"] as? [String])?.contains("http://127.0.0.1:8080/feeds/family.ics") == true, "\(body)")
                let settings = try await client.execute(uri: "/api/feeds/family", method: .get, headers: fixture.admin)
                #expect(String(buffer: settings.body).contains("/purge"), "the API shows the hook")
            }
        }
    }

    /// Issue #27, 3: the hook posted to loopback and followed redirects. It now
    /// goes out under the rules of source fetches.
    @Test func thePurgeHookKeepsToTheAddressPolicyAndFollowsNoRedirect() async throws {
        let calls = Calls()
        try await SourceServer.serving { router in
            router.post("purge") { _, _ in calls.add("purge", ""); return Response(status: .noContent) }
            router.post("moved") { _, _ in Response(status: .temporaryRedirect, headers: [.location: "/purge"]) }
        }.test(.live) { hook in
            let port = try #require(hook.port)
            let body = PurgeNotifier.Body(feed: "family", revision: 2, surrogateKey: "feed-family", urls: [])
            let strict = PurgeNotifier(baseURL: "http://x", logger: Logger(label: "test"), policy: AddressPolicy(allowPrivate: false))
            await #expect(throws: PurgeNotifier.Failed.self) { try await strict.deliver(body, to: "http://127.0.0.1:\(port)/purge") }
            do { try await strict.deliver(body, to: "http://127.0.0.1:\(port)/purge") } catch {
                #expect("\(error)".contains("loopback"), "\(error)")
            }
            await #expect(throws: PurgeNotifier.Failed.self) { try await strict.deliver(body, to: "file:///etc/passwd") }
            #expect(calls.all.isEmpty, "a refused hook is never called")

            let lan = PurgeNotifier(baseURL: "http://x", logger: Logger(label: "test"), policy: AddressPolicy(allowPrivate: true))
            do { try await lan.deliver(body, to: "http://127.0.0.1:\(port)/moved"); Issue.record("a redirect was accepted") } catch {
                #expect("\(error)".contains("307, a redirect, which is not followed"), "\(error)")
            }
            #expect(calls.all.isEmpty, "the redirect's target is not called")
            try await lan.deliver(body, to: "http://127.0.0.1:\(port)/purge")
            #expect(calls.all.count == 1)
        }
    }

    final class Calls: Sendable {
        private let list = Mutex<[(key: String, body: String)]>([])
        /// Fired by the first call: a test awaits it instead of looking again and again.
        let first = Signal()
        func add(_ key: String, _ body: String) {
            list.withLock { $0.append((key, body)) }
            first.fire()
        }
        var all: [(key: String, body: String)] { list.withLock { $0 } }
    }
}
