@testable import Catalog
import CompressNIO
@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// gzip is optional: off by default (some Outlook versions choke on it), and when
/// on, the gzipped bytes have their own strong ETag.
struct CompressionTests {
    @Test func offByDefault() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            let response = try await client.execute(uri: "/feeds/family.ics", method: .get, headers: [.acceptEncoding: "gzip, deflate"])
            #expect(response.headers[.contentEncoding] == nil)
            #expect(String(buffer: response.body).hasPrefix("BEGIN:VCALENDAR"))
        }
    }

    @Test func whenEnabledGzipHasItsOwnETag() async throws {
        let fixture = try ServerFixture(transport: .live)
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer(adjust: { $0.gzip = true }) { client, _ in
            let plain = try await client.execute(uri: "/feeds/family.ics", method: .get)
            let packed = try await client.execute(uri: "/feeds/family.ics", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(plain.headers[.contentEncoding] == nil && packed.headers[.contentEncoding] == "gzip")
            #expect(packed.headers[.vary] == "Accept-Encoding" && plain.headers[.vary] == "Accept-Encoding")
            var body = packed.body
            var unpacked = try body.decompress(with: .gzip())
            #expect(unpacked.readString(length: unpacked.readableBytes) == String(buffer: plain.body))
            let packedTag = try #require(packed.headers[.eTag])
            #expect(packedTag != plain.headers[.eTag])
            let again = try await client.execute(uri: "/feeds/family.ics", method: .get, headers: [.acceptEncoding: "gzip", .ifNoneMatch: packedTag])
            #expect(again.status == .notModified)
            let refused = try await client.execute(uri: "/feeds/family.ics", method: .get, headers: [.acceptEncoding: "gzip;q=0"])
            #expect(refused.headers[.contentEncoding] == nil)
        }
    }

    /// The render cache's budget counts what a representation holds: NIO rounds a
    /// buffer's storage up to a power of two, so a 1.9 MB body holds 2 MB.
    @Test func cachedSizeCountsTheStorageHeld() throws {
        let text = (0..<40_000).map { "LINE \($0) of a calendar that compresses well\r\n" }.joined()
        let representation = Representation(bytes: Array(text.utf8), contentType: Representation.calendarType, lastModified: Date(),
                                            cacheControl: "max-age=60", gzip: true)
        let packed = try #require(representation.gzipped)
        #expect(representation.cachedSize >= representation.body.capacity + packed.body.capacity)
        #expect(representation.cachedSize > representation.body.readableBytes + packed.body.readableBytes)
    }
}
