@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Synchronization
import Testing

/// A URL source served by a local test server that answers 200, then 304, then
/// 500: the feed keeps its last good data and /healthz reports the failure.
struct URLSourceTests {
    /// Scripted answers, one per request, with what each request carried.
    final class Script: Sendable {
        let answers = Mutex<[Int]>([200, 304, 500])
        let seen = Mutex<[(ifNoneMatch: String?, ifModifiedSince: String?)]>([])
    }

    static func sourceServer(_ script: Script) -> some ApplicationProtocol {
        let router = Router()
        router.get("calendar.ics") { request, _ -> Response in
            script.seen.withLock { $0.append((request.headers[.ifNoneMatch], request.headers[.ifModifiedSince])) }
            let status = script.answers.withLock { $0.isEmpty ? 500 : $0.removeFirst() }
            switch status {
            case 200:
                return Response(status: .ok, headers: [.contentType: "text/calendar", .eTag: "\"v1\"", .lastModified: "Sun, 22 Nov 2026 08:00:00 GMT"],
                                body: .init(byteBuffer: ByteBuffer(string: ServerFixture.family)))
            case 304: return Response(status: .notModified, headers: [.eTag: "\"v1\""])
            default: return Response(status: .internalServerError, body: .init(byteBuffer: ByteBuffer(string: "boom")))
            }
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    @Test func refreshKeepsTheLastGoodDataWhenTheSourceFails() async throws {
        let script = Script()
        try await Self.sourceServer(script).test(.live) { source in
            let port = try #require(source.port)
            let fixture = try ServerFixture()
            try Data("""
                name: Remote
                timezone: Europe/London
                sources:
                  - url: http://127.0.0.1:\(port)/calendar.ics
                    refresh: PT1H
                    exclude:
                      summary: "^Trip$"

                """.utf8).write(to: fixture.feeds.appendingPathComponent("remote.yaml"))
            try await fixture.withServer { client in
                func refresh() async throws -> [[String: Any]] {
                    let response = try await client.execute(uri: "/api/feeds/remote/refresh", method: .post, headers: fixture.admin)
                    #expect(response.status == .ok)
                    return try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as! [[String: Any]]
                }
                func summaries() async throws -> Int {
                    try await client.text("/feeds/remote.ics").1.components(separatedBy: "BEGIN:VEVENT").count - 1
                }
                let first = try await refresh()
                #expect(first.first?["lastError"] == nil)
                #expect(try await summaries() == 2, "Christmas and Standup; the Trip is excluded by the filter")
                let etag = try await client.text("/feeds/remote.ics").0.headers[.eTag]

                _ = try await refresh()   // 304
                #expect(try await client.text("/feeds/remote.ics").0.headers[.eTag] == etag, "a 304 changes nothing")

                let third = try await refresh()   // 500
                #expect((third.first?["lastError"] as? String)?.contains("500") == true)
                #expect(try await summaries() == 2, "the last good data is kept")
                let (_, health) = try await client.text("/healthz")
                #expect((try JSONSerialization.jsonObject(with: Data(health.utf8)) as? [String: String]).map { Set($0.keys) == ["status", "see"] && $0["status"] == "degraded" } == true,
                        "the public check says only that something is wrong, and where to look: \(health)")
                let detail = try await client.execute(uri: "/api/health", method: .get, headers: fixture.admin)
                #expect(String(buffer: detail.body).contains("HTTP 500"), "the admin sees which source and why")
            }
            let seen = script.seen.withLock { $0 }
            #expect(seen.count == 3)
            #expect(seen.first?.ifNoneMatch == nil)
            #expect(seen.dropFirst().allSatisfy { $0.ifNoneMatch == "\"v1\"" && $0.ifModifiedSince == "Sun, 22 Nov 2026 08:00:00 GMT" },
                    "conditional GET with the stored validators")
        }
    }
}
