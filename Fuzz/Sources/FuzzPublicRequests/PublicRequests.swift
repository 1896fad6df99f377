import CountdownStore
import FeedServer
import HTTPSupport
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import TminusServer

/// The public routes (what anyone on the internet can send) in router mode,
/// on the in-memory store, with three feeds: a small one, a paged one of 250
/// countdowns (cursors), and a private one read through a token link. The
/// clock and the cursor key are fixed, so cursors written into the seeds
/// stay valid for the whole run. (The second audit: a forged `?cursor=`
/// reached trapping arithmetic; this harness looks for the next one.)
///
/// An input is a request: its first line the path and query, the next lines
/// `Name: value` headers, of which If-None-Match, If-Modified-Since and
/// Accept-Language are sent. A crash, a trap or a hang is a finding; any
/// answer, 4xx or 5xx, is not.
final class PublicRequests: @unchecked Sendable {
    static let now = Date(timeIntervalSince1970: 1_795_338_000)   // 2026-11-22T09:00:00Z
    static let cursorKey = Data(repeating: 7, count: 32).base64EncodedString()
    static let adminToken = "fuzz-admin-token-0123456789abcdef"

    private let responder: any HTTPResponder<ServerContext>
    private let channel = NIOAsyncTestingChannel()
    private let logger: Logger
    /// A token link's path prefix (`/t/{token}`), for the seeds; set once, before any input.
    private(set) var tokenPrefix = ""

    private init(responder: any HTTPResponder<ServerContext>, logger: Logger) {
        self.responder = responder
        self.logger = logger
    }

    static func make() async throws -> PublicRequests {
        var logger = Logger(label: "fuzz")
        logger.logLevel = .critical
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
        let feeds = directory.appendingPathComponent("feeds")
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        try Data(adminToken.utf8).write(to: directory.appendingPathComponent("admin-token"))
        try Data(calendar(count: 3, prefix: "family").utf8).write(to: directory.appendingPathComponent("family.ics"))
        try Data(calendar(count: 250, prefix: "day").utf8).write(to: directory.appendingPathComponent("long.ics"))
        for (slug, extra) in [("family", "timeZone: Europe/Berlin\n"), ("long", "timeZone: America/New_York\n"), ("bills", "public: false\n")] {
            let file = slug == "long" ? "long" : "family"
            try Data("name: \(slug.capitalized)\n\(extra)sources:\n  - file: ../\(file).ics\n".utf8).write(to: feeds.appendingPathComponent("\(slug).yaml"))
        }
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, database: .memory, feedsDirectory: feeds.path,
                                                adminTokenFile: directory.appendingPathComponent("admin-token").path,
                                                baseURL: "http://127.0.0.1:8080", refreshSources: false, clock: { now })
        configuration.allowPrivateSources = false
        let store = InMemoryCountdownStore(clock: { now })
        try await store.transaction { try await $0.setValue(PersistedValue(bytes: Data(cursorKey.utf8), expiresAt: nil), for: .setting(.cursorKey)) }
        let application = try await buildApplication(configuration, store: store, logger: logger)
        let responder = try await application.responder
        let probe = PublicRequests(responder: responder, logger: logger)
        // A token for the private feed, made as the admin API makes one.
        let created = try await probe.send(path: "/api/feeds/bills/tokens", method: .post, headers: [.authorization: "Bearer \(adminToken)",
                                                                                                   .contentType: "application/json"],
                                           body: #"{"label":"fuzz"}"#)
        let secret = (try? JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])?["secret"] as? String ?? "none"
        probe.tokenPrefix = "/t/\(secret)"
        return probe
    }

    static func calendar(count: Int, prefix: String) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tminus fuzz//EN"]
        for index in 0..<count {
            lines += ["BEGIN:VEVENT", "UID:\(prefix)-\(index)@fuzz", "DTSTAMP:20260101T000000Z", "SUMMARY:\(prefix) \(index)",
                      "CATEGORIES:\(index % 2 == 0 ? "Even" : "Odd")", "DTSTART;VALUE=DATE:2027\(String(format: "%02d%02d", 1 + index % 12, 1 + index % 28))",
                      index % 5 == 0 ? "RRULE:FREQ=YEARLY" : "CLASS:PUBLIC", "END:VEVENT"]
        }
        return (lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    struct Answer {
        var status: HTTPResponse.Status
        var body: [UInt8]
    }

    /// Sends one request through the router and reads the whole answer.
    func send(path: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:], body: String = "") async throws -> Answer {
        let head = HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1:8080", path: path, headerFields: headers)
        let request = Request(head: head, body: .init(buffer: ByteBuffer(string: body)))
        let context = ServerContext(source: .init(channel: channel, logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            return Answer(status: error.status, body: [])
        }
        let collector = Collector()
        try await response.body.write(collector)
        return Answer(status: response.status, body: collector.bytes)
    }

    /// Reads the input as a request and sends it.
    func handle(_ input: [UInt8]) async {
        let lines = String(decoding: input, as: UTF8.self).split(separator: "\n", maxSplits: 8, omittingEmptySubsequences: false)
        var path = String(lines.first ?? "/").filter { $0.asciiValue.map { $0 > 0x20 && $0 < 0x7F } ?? false }
        if !path.hasPrefix("/") { path = "/" + path }
        var headers = HTTPFields()
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces).filter { $0.asciiValue.map { $0 >= 0x20 && $0 < 0x7F } ?? false }
            switch parts[0].lowercased() {
            case "if-none-match": headers[.ifNoneMatch] = value
            case "if-modified-since": headers[.ifModifiedSince] = value
            case "accept-language": headers[.acceptLanguage] = value
            default: continue
            }
        }
        _ = try? await send(path: path, headers: headers)
    }

    /// Seed inputs: every public route of each feed, with the query
    /// parameters they take, and the real cursors of the paged feed.
    func seeds() async -> [String] {
        var seeds = ["/", "/healthz", "/assets/tminus.css", "/images/abc"]
        for prefix in ["", tokenPrefix] {
            for slug in ["family", "long", "bills"] {
                let base = "\(prefix)/feeds/\(slug)"
                seeds += ["\(base).ics", "\(base).ics?rscale=dates", "\(base).json", "\(base).json?limit=10&tz=Asia/Tokyo&unit=weeks&sort=title&lang=ja",
                          "\(base).json?category=even", "\(base)?tz=Europe/Paris&lang=de", "\(base)/countdown.ics?lang=fr", "\(base)/1.svg?tz=UTC",
                          "\(base).json\nIf-None-Match: \"abc\"\nAccept-Language: de-CH, fr;q=0.5",
                          "\(base).ics\nIf-Modified-Since: Sun, 22 Nov 2026 09:00:00 GMT"]
            }
        }
        for path in ["/feeds/long.json?limit=10", "/feeds/long.json?limit=10&category=odd", "/feeds/long"] {
            guard let answer = try? await send(path: path) else { continue }
            let text = String(decoding: answer.body, as: UTF8.self)
            if let json = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any], let next = json["next"] as? String {
                let query = path.contains("category") ? "limit=10&category=odd&" : "limit=10&"
                seeds.append("/feeds/long.json?\(query)cursor=\(next)")
            } else if let range = text.range(of: #"href="(/feeds/long\?cursor=[^"]+)""#, options: .regularExpression) {
                seeds.append(String(text[range].dropFirst(6).dropLast()).replacingOccurrences(of: "&amp;", with: "&"))
            }
        }
        return seeds
    }
}

/// Collects a response body.
private final class Collector: ResponseBodyWriter, @unchecked Sendable {
    var bytes: [UInt8] = []
    func write(_ buffer: ByteBuffer) async throws { bytes += buffer.readableBytesView }
    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
