import Catalog
import Countdowns
import CountdownStore
import Foundation
import Hummingbird
import ICalendar

/// JSON in and out of the admin API, and how store errors become status codes.
package enum AdminJSON {
    package static func encode(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder.tminus.encode(value))))
    }

    package static func body(_ request: Request, limit: Int) async throws -> ByteBuffer {
        var request = request
        do { return try await request.collectBody(upTo: limit) } catch {
            throw HTTPError(.contentTooLarge, message: "the request body is over the limit of \(limit) bytes")
        }
    }

    package static func decode<T: Decodable>(_ type: T.Type, _ request: Request, limit: Int) async throws -> T {
        try decode(type, from: try await body(request, limit: limit))
    }

    package static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        do { return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView)) } catch let error as DecodingError {
            throw HTTPError(.badRequest, message: "malformed JSON: \(error.readable)")
        } catch {
            throw HTTPError(.badRequest, message: "malformed JSON")
        }
    }
}

/// A feed as the admin API shows it: its slug, the settings document that
/// `feeds/*.yaml` uses too (flattened into the same object), and read-only facts.
package struct FeedJSON: Codable {
    package var slug: String
    package var settings: FeedSettingsDocument
    package var countdowns: Int?
    package var updatedAt: Date?
    package var links: [String: String]?
    /// The space a new feed is made in (POST only); none: the person's own.
    package var space: String?

    package enum CodingKeys: String, CodingKey { case slug, countdowns, updatedAt, links, space }

    package init(_ stored: StoredFeed, baseURL: String) {
        let feed = stored.feed
        slug = feed.slug
        settings = FeedSettingsDocument(feed)
        countdowns = stored.countdownCount
        updatedAt = stored.updatedAt
        if feed.isPublic {
            let links = FeedPage.links(baseURL: baseURL, path: "/feeds/\(feed.slug)")
            self.links = ["ics": links.https, "webcal": links.webcal, "json": links.json, "countdown": links.countdown, "html": baseURL + "/feeds/\(feed.slug)"]
        }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        slug = try container.decode(String.self, forKey: .slug)
        space = try container.decodeIfPresent(String.self, forKey: .space)
        settings = try FeedSettingsDocument(from: decoder)
    }

    package func encode(to encoder: any Encoder) throws {
        try settings.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(slug, forKey: .slug)
        try container.encodeIfPresent(countdowns, forKey: .countdowns)
        try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(links, forKey: .links)
    }
}
