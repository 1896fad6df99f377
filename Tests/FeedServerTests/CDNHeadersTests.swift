import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
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
}
