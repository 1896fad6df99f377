@testable import Catalog
@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// Headers and conditional GET, as DESIGN.md's checklist asks, against a live server.
struct HTTPBehaviourTests {
    @Test func exportedCalendarHeadersAndConditionalGet() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timezone: Europe/Berlin\ncolor: \"#FF2D55\"")
        try await fixture.withServer { client in
            let (first, body) = try await client.text("/feeds/family.ics")
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "text/calendar; charset=utf-8")
            let etag = try #require(first.headers[.eTag])
            let lastModified = try #require(first.headers[.lastModified])
            #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"), "a strong ETag")
            #expect(body.hasSuffix("END:VCALENDAR\r\n"))
            #expect(first.headers[.contentDisposition]?.contains("family.ics") == true)

            for header in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
                let response = try await client.execute(uri: "/feeds/family.ics", method: .get, headers: [.ifNoneMatch: header])
                #expect(response.status == .notModified, "If-None-Match: \(header)")
                #expect(response.headers[.eTag] == etag && response.headers[.lastModified] == lastModified, "validators repeated on 304")
                #expect(response.body.readableBytes == 0)
            }
            let other = try await client.execute(uri: "/feeds/family.ics", method: .get,
                                                 headers: [.ifNoneMatch: "\"stale\"", .ifModifiedSince: "Sun, 22 Nov 2099 00:00:00 GMT"])
            #expect(other.status == .ok, "If-None-Match wins over If-Modified-Since")
            let since = try await client.execute(uri: "/feeds/family.ics", method: .get, headers: [.ifModifiedSince: lastModified])
            #expect(since.status == .notModified)
            let garbage = try await client.execute(uri: "/feeds/family.ics", method: .get, headers: [.ifModifiedSince: "last tuesday"])
            #expect(garbage.status == .ok, "an unparsable date means 200")
            let older = try await client.execute(uri: "/feeds/family.ics", method: .get, headers: [.ifModifiedSince: "Thu, 01 Jan 2015 00:00:00 GMT"])
            #expect(older.status == .ok)

            let head = try await client.execute(uri: "/feeds/family.ics", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0)
            #expect(head.headers[.eTag] == etag && head.headers[.contentLength] == String(body.utf8.count))

            let (again, sameBody) = try await client.text("/feeds/family.ics")
            #expect(sameBody == body && again.headers[.eTag] == etag, "byte-stable between requests")
        }
    }

    @Test func lastModifiedNeverMovesBackAfterADeletion() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            let (before, _) = try await client.text("/feeds/family.ics")
            let beforeHeader = try #require(before.headers[.lastModified])
            let stamp = try #require(HTTPDate.parse(beforeHeader))
            fixture.setClock(fixture.clockNow.addingTimeInterval(-3600))   // the server clock steps back
            let (list, _) = try await client.text("/api/feeds/family/countdowns", headers: fixture.admin)
            #expect(list.status == .ok)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as! [String: Any]
            let id = try #require(((json["countdowns"] as? [[String: Any]])?.first?["id"]) as? Int)
            let deleted = try await client.execute(uri: "/api/countdowns/\(id)", method: .delete, headers: fixture.admin)
            #expect(deleted.status == .noContent)
            let (after, body) = try await client.text("/feeds/family.ics")
            let afterHeader = try #require(after.headers[.lastModified])
            let afterStamp = try #require(HTTPDate.parse(afterHeader))
            #expect(afterStamp >= stamp)
            #expect(after.headers[.eTag] != before.headers[.eTag], "new bytes, new ETag")
            #expect(body.components(separatedBy: "BEGIN:VEVENT").count == 3)
        }
    }

    /// A `feeds/` folder copied without its calendars still starts, and the
    /// operator's health names each missing file and where it was looked for (issue #40).
    @Test func aFeedFolderCopiedAloneSaysWhichFileIsMissing() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try FileManager.default.removeItem(at: fixture.directory.appendingPathComponent("family.ics"))
        try await fixture.withServer { client in
            let response = try await client.execute(uri: "/api/health", method: .get, headers: fixture.admin)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            let sources = try #require(json["sources"] as? [[String: Any]])
            let missing = try #require(sources.first { $0["feed"] as? String == "family" })
            #expect(missing["ok"] as? Bool == false)
            #expect((missing["error"] as? String)?.hasPrefix("no file at \(fixture.directory.appendingPathComponent("family.ics").path) (a `file:` is read from the folder") == true,
                    "\(missing)")
            #expect(try await client.execute(uri: "/feeds/family.ics", method: .get).status == .ok, "the feed is served, empty")
        }
    }

    /// A feed is rendered once per change: the exported calendar when the feed
    /// is compiled, the countdown calendar once a day however often it is polled.
    /// (`/api/health` measures the countdown calendar's size, so its first call
    /// renders it: the polls after it find it in the cache.)
    @Test func renderingIsCachedByContent() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            func misses() async throws -> Int {
                let response = try await client.execute(uri: "/api/health?feed=family", method: .get, headers: fixture.admin)
                let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as! [String: Any]
                return (json["renderCache"] as! [String: Int])["misses"]!
            }
            let start = try await misses()
            for _ in 0..<20 { _ = try await client.text("/feeds/family.ics") }
            // The first read looks once for an export the store kept (`KeptExport`), finds
            // none and compiles; the exported calendar is rendered by that compile, and
            // the other 19 reads are served from the compiled feed.
            #expect(try await misses() == start + 1, "the exported calendar was rendered when the feed was compiled")
            for _ in 0..<5 { _ = try await client.text("/feeds/family/countdown.ics") }
            #expect(try await misses() == start + 1)
            fixture.setClock(fixture.clockNow.addingTimeInterval(86_400))
            for _ in 0..<5 { _ = try await client.text("/feeds/family/countdown.ics") }
            #expect(try await misses() == start + 2, "a new day, one new render (health's included)")
        }
    }

    @Test func httpDatesParseAllThreeFormsAndRejectTheRest() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.format(expected) == "Sun, 06 Nov 1994 08:49:37 GMT")
        for bad in ["", "yesterday", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT", "1994-11-06T08:49:37Z"] {
            #expect(HTTPDate.parse(bad) == nil, "\(bad)")
        }
    }
}
