@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// The feed setting `sort:` (issue #22's demonstration of a setting added end
/// to end): the order of the feed's page and JSON when the request names none.
struct FeedSortTests {
    static func titles(_ body: String) throws -> [String] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        return try #require(root["countdowns"] as? [[String: Any]]).compactMap { $0["title"] as? String }
    }

    @Test func aFeedSortedByTitleOrdersItsPageAndJSONUnlessTheRequestAsks() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timeZone: Europe/Berlin\nsort: title")
        try await fixture.withServer { client in
            #expect(try Self.titles(try await client.text("/feeds/family.json").1) == ["🎄 Christmas", "Standup", "Trip"])
            #expect(try Self.titles(try await client.text("/feeds/family.json?sort=remaining").1) == ["Standup", "Trip", "🎄 Christmas"],
                    "?sort= still wins")
            let page = try await client.text("/feeds/family").1
            let positions = try ["Christmas", "Standup", "Trip"].map { try #require(page.range(of: $0)?.lowerBound) }
            #expect(positions == positions.sorted(), "the page lists by title too")

            let api = try await client.text("/api/feeds/family", headers: fixture.admin).1
            #expect(api.contains("\"sort\":\"title\""))
            let patch = try await client.execute(uri: "/api/feeds/family", method: .patch, headers: fixture.admin + [.contentType: "application/json"],
                                                 body: ByteBuffer(string: #"{"slug":"family","sort":"remaining"}"#))
            #expect(patch.status == .ok)
            #expect(try Self.titles(try await client.text("/feeds/family.json").1) == ["Standup", "Trip", "🎄 Christmas"])
            let bad = try await client.execute(uri: "/api/feeds/family", method: .patch, headers: fixture.admin + [.contentType: "application/json"],
                                               body: ByteBuffer(string: #"{"slug":"family","sort":"alphabetical"}"#))
            #expect(bad.status == .unprocessableContent && String(buffer: bad.body).contains("sort: 'alphabetical' must be remaining or title"))
        }
    }
}
