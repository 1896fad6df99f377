import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
@testable import FeedServer

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

    /// A feed's `purge:` hook hears of every change: a POST naming the feed,
    /// its new revision, its surrogate key and its URLs.
    @Test func aChangeCallsTheFeedsPurgeHook() async throws {
        let calls = Calls()
        try await InternetSafetyTests.sourceServer { router in
            router.post("purge") { request, _ in
                let body = try await request.body.collect(upTo: 1 << 16)
                calls.add(request.headers[HTTPField.Name("Surrogate-Key")!] ?? "", String(buffer: body))
                return Response(status: .noContent)
            }
        }.test(.live) { hook in
            let fixture = try ServerFixture()
            try fixture.feed("family", calendar: ServerFixture.family, yaml: "purge: http://127.0.0.1:\(try #require(hook.port))/purge")
            try await fixture.withServer { client in
                #expect(calls.all.isEmpty, "loading the feed at start purges nothing")
                let listed = try await client.execute(uri: "/api/feeds/family/countdowns", method: .get, headers: fixture.admin)
                let countdowns = try #require((try JSONSerialization.jsonObject(with: Data(buffer: listed.body)) as? [String: Any])?["countdowns"] as? [[String: Any]])
                let id = try #require(countdowns.first?["id"] as? Int)
                let edited = try await client.execute(uri: "/api/countdowns/\(id)", method: .patch, headers: fixture.admin,
                                                      body: ByteBuffer(string: #"{"title":"Renamed"}"#))
                #expect(edited.status == .ok)
                for _ in 0..<100 where calls.all.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
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

    final class Calls: Sendable {
        private let list = Mutex<[(key: String, body: String)]>([])
        func add(_ key: String, _ body: String) { list.withLock { $0.append((key, body)) } }
        var all: [(key: String, body: String)] { list.withLock { $0 } }
    }
}
