@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// Uploaded images are stored apart, served by URL, and never inlined in lists.
struct ImageTests {
    @Test func uploadServeAndReference() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            let list = try await client.execute(uri: "/api/feeds/family/countdowns", method: .get, headers: fixture.admin)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as! [String: Any]
            let id = try #require(((json["countdowns"] as? [[String: Any]])?.first?["id"]) as? Int)
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 42, count: 4000)
            let uploaded = try await client.execute(uri: "/api/countdowns/\(id)/image", method: .put, headers: fixture.admin,
                                                    body: ByteBuffer(bytes: png))
            #expect(uploaded.status == .ok)
            let snapshot = try JSONSerialization.jsonObject(with: Data(buffer: uploaded.body)) as! [String: Any]
            let url = try #require(snapshot["image"] as? String)
            #expect(url.hasPrefix("http://127.0.0.1:8080/images/"))
            let image = try await client.execute(uri: String(url.dropFirst("http://127.0.0.1:8080".count)), method: .get)
            #expect(image.status == .ok && image.headers[.contentType] == "image/png" && Array(image.body.readableBytesView) == png)
            let (_, feedJSON) = try await client.text("/feeds/family.json")
            #expect(feedJSON.contains(url) && feedJSON.count < 4000, "lists carry the URL, never the bytes")
            let (_, ics) = try await client.text("/feeds/family.ics")
            #expect(ics.replacingOccurrences(of: "\r\n ", with: "").contains("IMAGE;VALUE=URI;DISPLAY=BADGE:\(url)"))
            let text = try await client.execute(uri: "/api/countdowns/\(id)/image", method: .put, headers: fixture.admin,
                                                body: ByteBuffer(string: "not an image"))
            #expect(text.status == .unsupportedMediaType)
            let removed = try await client.execute(uri: "/api/countdowns/\(id)/image", method: .delete, headers: fixture.admin)
            #expect(removed.status == .ok && !String(buffer: removed.body).contains("/images/"))
        }
    }
}
