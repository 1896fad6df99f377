@testable import Catalog
import Countdowns
import CountdownStore
@testable import FeedServer
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ICalendar
import ServerTestSupport
import Services
import Testing
import TestSupport

/// Issue #41: a large feed's first `.json` and HTML pages are read by place (the first
/// rows by `PlaceBound`) without compiling the feed, and each is byte for byte
/// the page the compiled feed gives: the same server, restarted on the same
/// SQLite file (the same cursor key), answers each query once by place and
/// once compiled.
@Suite(.serialized) struct FirstPageTests {
    /// Every kind a list sorts differently: floating times near now (their
    /// order depends on the viewer's zone), all-day today, open tasks overdue,
    /// due today and this week, done and cancelled ones, counting up, and a
    /// repeat whose last occurrence is over; beside a thousand generated events.
    static func calendar(around now: Date) -> String {
        let generated = GeneratedCalendar.make(events: Self.generated)
        let stamp = { (offset: TimeInterval) in calendarStamp(now.addingTimeInterval(offset)) }
        let day = { (offset: TimeInterval) in String(stamp(offset).prefix(8)) }
        var lines: [String] = []
        for index in 0..<60 {
            let hours = Double(index - 30) * 1.5 * 3_600
            let uid = "UID:near-\(index)@tests", common = ["DTSTAMP:20260101T000000Z", "CATEGORIES:\(["Près", "work"][index % 2])"]
            switch index % 6 {
            case 0: lines += ["BEGIN:VEVENT", uid, "SUMMARY:Floating \(index)", "DTSTART:\(stamp(hours))", "DURATION:PT1H"] + common + ["END:VEVENT"]
            case 1: lines += ["BEGIN:VEVENT", uid, "SUMMARY:All day \(index)", "DTSTART;VALUE=DATE:\(day(hours))"] + common + ["END:VEVENT"]
            case 2: lines += ["BEGIN:VTODO", uid, "SUMMARY:Task \(index)", "DUE:\(stamp(hours * 3))Z"] + common + ["END:VTODO"]
            case 3: lines += ["BEGIN:VTODO", uid, "SUMMARY:Done \(index)", "DUE;VALUE=DATE:\(day(hours))", "STATUS:COMPLETED"] + common + ["END:VTODO"]
            case 4: lines += ["BEGIN:VEVENT", uid, "SUMMARY:Cancelled \(index)", "DTSTART:\(stamp(hours))Z", "STATUS:CANCELLED"] + common + ["END:VEVENT"]
            default:
                lines += ["BEGIN:VEVENT", uid, "SUMMARY:Since \(index)", "DTSTART;VALUE=DATE:\(day(-86_400 * Double(index)))", "RRULE:FREQ=WEEKLY;COUNT=3",
                          "X-TMINUS-DIRECTION:up"] + common + ["END:VEVENT"]
            }
        }
        return generated.replacingOccurrences(of: "END:VCALENDAR\r\n", with: lines.joined(separator: "\r\n") + "\r\nEND:VCALENDAR\r\n")
    }

    /// `instant` as a floating date-time in UTC (`20261127T142000`).
    static func calendarStamp(_ instant: Date) -> String {
        let format = DateFormatter()
        format.dateFormat = "yyyyMMdd'T'HHmmss"
        format.timeZone = .gmt
        return format.string(from: instant)
    }

    /// Generated events beside the 60 near ones: more than the first reads
    /// take (4 × 100 rows), fewer than the default threshold, to keep the suite quick.
    static let generated = 540

    static func smallFeedsByPlace(_ configuration: inout ServerConfiguration) { configuration.placedReadFrom = 500 }

    /// First `.json` pages, then first HTML pages (`/feeds/big`).
    static let queries = [".json", ".json?tz=Pacific/Kiritimati", ".json?tz=Pacific/Pago_Pago&limit=7", ".json?category=pr%C3%A8s",
                          ".json?category=WORK&tz=Asia/Tokyo&unit=weeks", ".json?category=family&limit=3", ".json?category=nothing", ".json?limit=1000",
                          ".json?lang=de", "", "?tz=Pacific/Pago_Pago", "?tz=Asia/Tokyo&lang=fr"]

    /// Each query's body through the route: by place while the feed is not compiled, else compiled.
    static func bodies(_ client: any TestClientProtocol, _ queries: [String]) async throws -> [String] {
        var bodies: [String] = []
        for query in queries {
            let (head, body) = try await client.text("/feeds/big\(query)")
            #expect(head.status == .ok, "\(query): \(body.prefix(200))")
            bodies.append(body)
        }
        return bodies
    }

    @Test(arguments: [0.0, 3 * 86_400, 200 * 86_400] as [TimeInterval])
    func theFirstPageReadByPlaceIsTheCompiledFeedsFirstPage(later: TimeInterval) async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        try fixture.feed("big", calendar: Self.calendar(around: fixture.clockNow.addingTimeInterval(later)), yaml: "public: true")
        // Written now; read `later` (the place round not run): an old place only widens the read.
        try await fixture.withServer(adjust: Self.smallFeedsByPlace) { _, _ in }
        fixture.setClock(fixture.clockNow.addingTimeInterval(later))
        let byPlace = try await fixture.withServer(adjust: Self.smallFeedsByPlace) { client, parts in
            let bodies = try await Self.bodies(client, Self.queries)
            #expect(parts.catalog.compileCount == 0, "every first page was read by place")
            return bodies
        }
        let compiled = try await fixture.withServer(adjust: Self.smallFeedsByPlace) { client, parts in
            // Compiled for the pages (`.ics` of a large feed is written in batches, not compiled: BatchedExportTests).
            _ = try #require(await parts.catalog.feed(slug: "big"))
            #expect(parts.catalog.compileCount == 1)
            return try await Self.bodies(client, Self.queries)
        }
        for (query, (place, compile)) in zip(Self.queries, zip(byPlace, compiled)) {
            #expect(place == compile, "\(query): the page read by place differs from the compiled one")
        }
        let first = try JSONDecoder().decode(FeedSnapshot.self, from: Data(byPlace[0].utf8))
        #expect(first.countdowns.count == FeedQuery.defaultLimit && first.total == Self.generated + 60 && first.next != nil)
    }

    /// A private feed's first pages through a token link are read by place in
    /// the link's view (its redaction), with the compiled view's bytes; without
    /// the token they stay a 404, and nothing is compiled for it.
    @Test func aTokenLinksFirstPagesAreReadByPlaceInItsView() async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        try fixture.feed("big", calendar: Self.calendar(around: fixture.clockNow), yaml: "public: false")
        let secret = try await fixture.withServer(adjust: Self.smallFeedsByPlace) { client, _ in
            let created = try await client.execute(uri: "/api/feeds/big/tokens", method: .post, headers: fixture.admin,
                                                   body: ByteBuffer(string: #"{"label":"phone","visibility":"busy"}"#))
            #expect(created.status == .created)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: created.body)) as? [String: Any]
            return try #require(json?["secret"] as? String)
        }
        let paths = ["/t/\(secret)/feeds/big", "/t/\(secret)/feeds/big.json", "/t/\(secret)/feeds/big.json?tz=Asia/Tokyo&limit=20"]
        let byPlace = try await fixture.withServer(adjust: Self.smallFeedsByPlace) { client, parts in
            for path in ["/feeds/big", "/feeds/big.json"] { #expect(try await client.text(path).0.status == .notFound, "\(path) without the token") }
            var bodies: [String] = []
            for path in paths {
                let (head, body) = try await client.text(path)
                #expect(head.status == .ok, "\(path): \(body.prefix(200))")
                bodies.append(body)
            }
            #expect(parts.catalog.compileCount == 0, "read by place, in the link's view")
            return bodies
        }
        let compiled = try await fixture.withServer(adjust: Self.smallFeedsByPlace) { client, parts in
            _ = try #require(await parts.catalog.feed(slug: "big", as: .busy))
            #expect(parts.catalog.compileCount == 1)
            var bodies: [String] = []
            for path in paths { bodies.append(try await client.text(path).1) }
            return bodies
        }
        for (path, (place, compile)) in zip(paths, zip(byPlace, compiled)) {
            #expect(place == compile, "\(path): the page read by place differs from the compiled one")
        }
        let page = try JSONDecoder().decode(FeedSnapshot.self, from: Data(byPlace[1].utf8))
        #expect(!page.countdowns.isEmpty && page.countdowns.allSatisfy { $0.title == Redaction.busyTitle }, "a busy link shows no titles")
    }

    /// The page after a first one read by place continues from its cursor on
    /// the compiled feed: one walk, every countdown once.
    @Test func aWalkFromAFirstPageReadByPlaceSeesEveryCountdownOnce() async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        try fixture.feed("big", calendar: Self.calendar(around: fixture.clockNow), yaml: "public: true")
        try await fixture.withServer(adjust: Self.smallFeedsByPlace) { client, parts in
            var uids: [String] = []
            var path = "/feeds/big.json?limit=500"
            while true {
                let (head, body) = try await client.text(path)
                #expect(head.status == .ok)
                let page = try JSONDecoder().decode(FeedSnapshot.self, from: Data(body.utf8))
                uids += page.countdowns.map(\.uid)
                guard let next = page.next else { break }
                path = "/feeds/big.json?limit=500&cursor=\(next)"
                #expect(parts.catalog.compileCount <= 1)
            }
            #expect(uids.count == Self.generated + 60 && Set(uids).count == uids.count)
        }
    }

    /// Rows kept before 0.14 have no place: the first page compiles the feed
    /// until the place round (at start and hourly) placed them, then reads by place.
    @Test func rowsWithoutAPlaceAreCompiledUntilTheRoundPlacesThem() async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        try fixture.feed("big", calendar: Self.calendar(around: fixture.clockNow), yaml: "public: true")
        try await fixture.withServer(adjust: Self.smallFeedsByPlace) { _, _ in }
        try await DatabaseQueue(path: fixture.databasePath).write { db in
            try db.execute(sql: "UPDATE countdown SET placeRank = NULL, placeFrom = NULL, placeCheckAt = NULL")
        }
        try await fixture.withServer(adjust: Self.smallFeedsByPlace) { client, parts in
            let (head, _) = try await client.text("/feeds/big.json")
            #expect(head.status == .ok)
            #expect(parts.catalog.compileCount == 1, "unplaced rows: compiled")
            let placed = try await parts.dependencies.parts.service.acting(as: .system).placeCountdowns()
            #expect(placed == Self.generated + 60)
            let again = try await parts.dependencies.parts.service.acting(as: .system).placeCountdowns()
            #expect(again == 0, "a second round finds nothing due")
        }
        try await fixture.withServer(adjust: Self.smallFeedsByPlace) { client, parts in
            let (head, _) = try await client.text("/feeds/big.json")
            #expect(head.status == .ok)
            #expect(parts.catalog.compileCount == 0, "placed: read by place")
        }
    }
}
