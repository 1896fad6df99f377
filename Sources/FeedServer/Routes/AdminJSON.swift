import Countdowns
import CountdownStore
import Foundation
import Hummingbird
import ICalendar

/// JSON in and out of the admin API, and how store errors become status codes.
enum AdminJSON {
    static func encode(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    static func body(_ request: Request, limit: Int) async throws -> ByteBuffer {
        var request = request
        do { return try await request.collectBody(upTo: limit) } catch {
            throw HTTPError(.contentTooLarge, message: "the request body is over the limit of \(limit) bytes")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ request: Request, limit: Int) async throws -> T {
        let buffer = try await body(request, limit: limit)
        do { return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView)) } catch let error as DecodingError {
            throw HTTPError(.badRequest, message: "malformed JSON: \(describe(error))")
        } catch {
            throw HTTPError(.badRequest, message: "malformed JSON")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (path.isEmpty ? "" : "\(path): ") + context.debugDescription
        case .keyNotFound(let key, _): return "\(key.stringValue) is required"
        @unknown default: return "\(error)"
        }
    }

    /// The status a store error deserves; every one of them left the store unchanged.
    static func map(_ error: any Error) -> any Error {
        switch error {
        case let error as StoreError:
            switch error {
            case .feedNotFound, .countdownNotFound: return HTTPError(.notFound, message: error.description)
            case .feedExists, .duplicateUID: return HTTPError(.conflict, message: error.description)
            case .invalidSlug: return HTTPError(.badRequest, message: error.description)
            case .tooLarge, .tooManyComponents: return HTTPError(.contentTooLarge, message: error.description)
            case .unusableCalendar, .invalid: return HTTPError(.unprocessableContent, message: error.description)
            }
        case let error as CountdownDraft.Invalid: return HTTPError(.unprocessableContent, message: error.description)
        default: return error
        }
    }
}

/// A feed as the admin API shows it, with its links.
struct FeedJSON: Codable {
    struct CountdownSettings: Codable {
        var mode: String
        var days: Int?
        var milestones: [Int]?
    }

    var slug: String
    var name: String?
    var description: String?
    var timeZone: String?
    var color: String?
    var `public`: Bool?
    var alarms: Bool?
    var refresh: String?
    var countdown: CountdownSettings?
    var countdowns: Int?
    var updatedAt: Date?
    var links: [String: String]?

    init(_ stored: StoredFeed, baseURL: String) {
        let feed = stored.feed
        slug = feed.slug
        name = feed.name
        description = feed.description
        timeZone = feed.timeZone
        color = feed.color
        `public` = feed.isPublic
        alarms = feed.includeAlarms
        refresh = feed.refreshInterval.description
        switch feed.countdownMode {
        case .daily(let days): countdown = .init(mode: "daily", days: days)
        case .milestones(let marks): countdown = .init(mode: "milestones", milestones: marks)
        }
        countdowns = stored.countdownCount
        updatedAt = stored.updatedAt
        if feed.isPublic {
            let links = FeedPage.links(baseURL: baseURL, path: "/feeds/\(feed.slug)")
            self.links = ["ics": links.https, "webcal": links.webcal, "json": links.json, "countdown": links.countdown, "html": baseURL + "/feeds/\(feed.slug)"]
        }
    }

    /// Applies the fields given to a feed definition, by the same rules as feeds/*.yaml.
    func apply(to feed: inout Feed) throws {
        do {
            if let name { feed.name = name }
            if let description { feed.description = description.isEmpty ? nil : description }
            if let timeZone { feed.timeZone = try Feed.validTimeZone(timeZone) }
            if let color { feed.color = try Feed.validColor(color) }
            if let isPublic = `public` { feed.isPublic = isPublic }
            if let alarms { feed.includeAlarms = alarms }
            if let refresh { feed.refreshInterval = try Feed.validInterval(refresh) }
            if let countdown { feed.countdownMode = try Feed.validCountdownMode(countdown.mode, days: countdown.days, milestones: countdown.milestones) }
        } catch let error as Feed.InvalidSetting {
            throw HTTPError(.unprocessableContent, message: error.message)
        }
    }
}
