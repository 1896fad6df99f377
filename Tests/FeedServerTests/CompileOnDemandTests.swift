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
import NIOCore
import ServerTestSupport
import Services
import Testing
import TestSupport

/// Issue #25: memory follows what is read, not what is stored. Feeds are
/// compiled on first read into a budgeted least-recently-used set, and long
/// lists come in pages.
struct CompileOnDemandTests {
    /// A calendar of `count` one-off all-day events, one a day from 2027-01-01.
    static func days(_ count: Int, prefix: String = "day") -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tminus tests//days//EN"]
        let start = Calendar(identifier: .gregorian).date(from: DateComponents(timeZone: .gmt, year: 2027, month: 1, day: 1))!
        let format = DateFormatter()
        format.dateFormat = "yyyyMMdd"
        format.timeZone = .gmt
        for index in 0..<count {
            let date = format.string(from: start.addingTimeInterval(Double(index) * 86_400))
            lines += ["BEGIN:VEVENT", "UID:\(prefix)-\(index)@tests", "DTSTAMP:20260101T000000Z", "SUMMARY:\(prefix) \(index)",
                      "DTSTART;VALUE=DATE:\(date)", "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    @Test func feedsAreCompiledOnTheirFirstReadNotAtStart() async throws {
        let fixture = try ServerFixture()
        for index in 0..<5 { try fixture.feed("feed-\(index)", calendar: ServerFixture.family) }
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            #expect(parts.catalog.compileCount == 0, "start reads the catalog and compiles nothing")
            let (health, body) = try await client.text("/healthz")
            #expect(health.status == .ok && body.contains("\"ok\""))
            let (index, page) = try await client.text("/")
            #expect(index.status == .ok && page.contains("feed-4"), "the index lists every feed from the catalog alone")
            #expect(parts.catalog.compileCount == 0)
            #expect(try await client.text("/feeds/feed-2.ics").0.status == .ok)
            #expect(parts.catalog.compileCount == 1)
        }
    }

    /// Another process's write (another replica on PostgreSQL, `tminus import`
    /// beside the server) reaches the catalog by a refresh: that compiles
    /// nothing, and the next read compiles the new revision.
    @Test func aChangeFoundByARefreshCompilesNothingUntilRead() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            _ = try await client.text("/feeds/family.json")
            let compiled = parts.catalog.compileCount
            let elsewhere = CountdownService(store: parts.store)
            _ = try await elsewhere.add(Countdown(uid: "new@tests", title: "Brand new", target: .date(CivilDate(year: 2027, month: 4, day: 1))),
                                        toFeed: "family")
            await parts.catalog.refresh()
            #expect(parts.catalog.compileCount == compiled, "the refresh read the feed's row, and compiled nothing")
            let (_, json) = try await client.text("/feeds/family.json")
            #expect(json.contains("Brand new") && parts.catalog.compileCount == compiled + 1)
        }
    }

    /// The owner's pages that sum over every feed (the feed list's open tasks,
    /// the timeline, tasks, statistics) compile at most `summedFeeds` feeds a
    /// request: with thousands of feeds, one page must not compile them all.
    @Test func pagesThatSumOverEveryFeedCompileABoundedNumberARequest() async throws {
        let fixture = try ServerFixture()
        let count = FeedCatalog.summedFeeds + 6
        for index in 0..<count { try fixture.feed(String(format: "feed-%03d", index), calendar: ServerFixture.family) }
        try await fixture.withServer(adjust: { _ in }) { _, parts in
            let first = await parts.catalog.feedsToSum()
            #expect(first.feeds.count == FeedCatalog.summedFeeds && first.left == 6)
            #expect(parts.catalog.compileCount == FeedCatalog.summedFeeds)
            let second = await parts.catalog.feedsToSum()
            #expect(second.feeds.count == count && second.left == 0, "those in memory, and the rest compiled now")
            #expect(parts.catalog.compileCount == count)
        }
    }

    /// Twenty first reads of a feed's calendar at once compile it once; of a
    /// large feed's (issue #41), write its export from its rows once, compiling nothing.
    @Test(arguments: [false, true]) func concurrentFirstReadsCompileAFeedOnce(large: Bool) async throws {
        let fixture = try ServerFixture()
        try fixture.feed("many", calendar: Self.days(2_000))
        try await fixture.withServer(adjust: { $0.placedReadFrom = large ? 1_000 : 100_000 }) { client, parts in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<20 { group.addTask { try await client.execute(uri: "/feeds/many.ics", method: .get).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .ok })
            #expect(parts.catalog.compileCount == (large ? 0 : 1) && parts.catalog.batchedExportCount == (large ? 1 : 0))
        }
    }

    /// Twenty first reads at once of each output a large feed answers without
    /// its compile (its first `.json` page, its page, its `countdown.ics`) make
    /// each once (a regression: each of 64 clients made them, none answered
    /// within wrk's two seconds, and the server's other outputs waited behind them).
    @Test func concurrentFirstReadsOfALargeFeedsOutputsMakeEachOnce() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("many", calendar: Self.days(2_000))
        try await fixture.withServer(adjust: { $0.placedReadFrom = 1_000 }) { client, parts in
            for path in ["/feeds/many.json", "/feeds/many", "/feeds/many/countdown.ics"] {
                let before = parts.renderer.cache.statistics.misses
                let responses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                    for _ in 0..<20 {
                        group.addTask { let (response, _) = try await client.text(path); return (response.status, response.headers[.eTag]) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(responses.allSatisfy { $0.0 == .ok } && Set(responses.map(\.1)).count == 1, "\(path): one representation")
                #expect(parts.renderer.cache.statistics.misses - before == 1, "\(path): made once")
            }
            #expect(parts.catalog.compileCount == 0, "nothing compiled")
        }
    }

    /// A budget of one byte keeps only the feed read last: every switch
    /// evicts. What comes back is compiled again and must be the same.
    @Test func aFeedEvictedAndReadAgainServesTheSameBytesAndETag() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("first", calendar: Self.days(300, prefix: "first"))
        try fixture.feed("second", calendar: Self.days(300, prefix: "second"))
        try await fixture.withServer(adjust: { $0.compiledBytes = 1 }) { client, parts in
            let (before, ics) = try await client.text("/feeds/first.ics")
            let (beforeJSON, json) = try await client.text("/feeds/first.json?limit=1000")
            _ = try await client.text("/feeds/second.ics")
            #expect(parts.catalog.statistics.evictions >= 1 && !parts.catalog.compiledNow.contains { $0.slug == "first" }, "second pushed first out")
            let compiled = parts.catalog.compileCount
            let (after, icsAgain) = try await client.text("/feeds/first.ics")
            let (afterJSON, jsonAgain) = try await client.text("/feeds/first.json?limit=1000")
            #expect(parts.catalog.compileCount == compiled + 1, "compiled again, once")
            #expect(icsAgain == ics && after.headers[.eTag] == before.headers[.eTag])
            #expect(jsonAgain == json && afterJSON.headers[.eTag] == beforeJSON.headers[.eTag])
        }
    }

    /// Pages of 100 through 250 countdowns: each once, in one order, even
    /// when the minute turns during the walk; after a change the old cursor is a 409.
    @Test func jsonCursorsWalkTheWholeFeedExactlyOnce() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("long", calendar: Self.days(250))
        try await fixture.withServer { client in
            var uids: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let (response, body) = try await client.text("/feeds/long.json" + (cursor.map { "?cursor=\($0)" } ?? ""))
                #expect(response.status == .ok)
                let page = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
                #expect(page["total"] as? Int == 250)
                uids += try #require(page["countdowns"] as? [[String: Any]]).compactMap { $0["uid"] as? String }
                cursor = page["next"] as? String
                pages += 1
                fixture.setClock(fixture.clockNow.addingTimeInterval(180))   // the walk spans minutes
            } while cursor != nil && pages < 10
            #expect(pages == 3)
            #expect(uids.count == 250 && Set(uids).count == 250, "every countdown once")
            #expect(uids == (0..<250).map { "day-\($0)@tests" }, "in the list's order")

            let (_, first) = try await client.text("/feeds/long.json?limit=10")
            let next = try #require((try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])?["next"] as? String)
            #expect(try await client.text("/feeds/long.json?limit=10&cursor=\(next)").0.status == .ok)
            #expect(try await client.text("/feeds/long.json?limit=10&cursor=\(next)&sort=title").0.status == .badRequest,
                    "a cursor is bound to its parameters")
            #expect(try await client.text("/feeds/long.json?cursor=bm9wZQ").0.status == .badRequest)
            var json = fixture.admin
            json[.contentType] = "application/json"
            let added = try await client.execute(uri: "/api/feeds/long/countdowns", method: .post, headers: json,
                                                 body: ByteBuffer(string: #"{"title":"One more","date":"2027-06-01"}"#))
            #expect(added.status == .created)
            let (stale, message) = try await client.text("/feeds/long.json?limit=10&cursor=\(next)")
            #expect(stale.status == .conflict && message.contains("start again"))
            fixture.setClock(fixture.clockNow.addingTimeInterval(2 * 3_600))
            let (_, fresh) = try await client.text("/feeds/long.json?limit=10")
            let later = try #require((try JSONSerialization.jsonObject(with: Data(fresh.utf8)) as? [String: Any])?["next"] as? String)
            fixture.setClock(fixture.clockNow.addingTimeInterval(2 * 3_600))
            #expect(try await client.text("/feeds/long.json?limit=10&cursor=\(later)").0.status == .conflict, "over an hour old")
        }
    }

    @Test func theFeedsPageShowsAHundredCardsAndLinksTheNext() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("long", calendar: Self.days(150), yaml: "timeZone: America/New_York")
        try await fixture.withServer { client in
            let (response, html) = try await client.text("/feeds/long")
            #expect(response.status == .ok)
            #expect(html.components(separatedBy: "<article class=\"card").count - 1 == 100)
            let link = try #require(html.range(of: #"href="(/feeds/long\?cursor=[^"]+)""#, options: .regularExpression))
            let href = String(html[link].dropFirst(6).dropLast()).replacingOccurrences(of: "&amp;", with: "&")
            #expect(href.contains("tz=America%2FNew"), "the zone goes with the link")
            let (second, rest) = try await client.text(href)
            #expect(second.status == .ok)
            #expect(rest.components(separatedBy: "<article class=\"card").count - 1 == 50)
            #expect(!rest.contains("rel=\"next\""), "the last page links nothing further")
            #expect(rest.contains("day 149") && !rest.contains(">day 0<"))
        }
    }

    /// While a big feed compiles, a small one is compiled and served: a read
    /// waits only for its own feed's compile.
    @Test func aSmallFeedIsServedWhileABigOneCompiles() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("big", calendar: GeneratedCalendar.make(events: 4_000))
        try fixture.feed("small", calendar: ServerFixture.family)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            // The big feed's compile is held until the small one has been served.
            let release = Signal()
            parts.catalog.gateCompiles { slug in if slug == "big" { await release.wait() } }
            #expect(parts.catalog.startCompiling(slug: "big"), "a compile of the big feed runs")
            let small = try await client.execute(uri: "/feeds/small.json", method: .get)
            #expect(small.status == .ok)
            #expect(parts.catalog.isCompiling(slug: "big"), "the small feed was served while the big one compiles")
            release.fire()
            // A read of the compiled feed waits for it (its first pages and calendar would not: read by place, written in batches, issue #41).
            #expect(await parts.catalog.feed(slug: "big") != nil)
            #expect(!parts.catalog.isCompiling(slug: "big") && parts.catalog.compileCount == 2)
        }
    }
}

/// Issue #25: a calendar client's miss is answered from the export the store
/// kept for the feed's revision (`KeptExport`), not by compiling the feed.
struct KeptExportTests {
    /// The export kept for the feed's current revision, once the writes asked for so far have landed.
    static func kept(_ parts: ServerFixture.Parts, _ slug: String, view: Redaction = .none) async throws -> KeptExport {
        await parts.catalog.exports.drain()
        let revision = try await parts.store.feed(slug: slug)?.revision
        guard let kept = try await parts.store.keptExport(slug: slug, view: view), kept.revision == revision else { throw StoreError.feedNotFound(slug) }
        return kept
    }

    @Test func aRestartedServerAnswersTheCalendarFromTheKeptExportWithoutCompiling() async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        try fixture.feed("family", calendar: ServerFixture.family)
        let (firstBody, firstTag) = try await fixture.withServer(adjust: { _ in }) { client, parts in
            let (response, body) = try await client.text("/feeds/family.ics")
            #expect(response.status == .ok && parts.catalog.compileCount == 1)
            #expect(try await Self.kept(parts, "family", view: .classified).bytes?.body == ByteBuffer(string: body))
            #expect(try await parts.store.keptExport(slug: "family", view: .none)?.bytes?.body == ByteBuffer(string: body))
            return (body, response.headers[.eTag])
        }
        let bodies = try await DatabaseQueue(path: fixture.databasePath).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM feedExport WHERE body IS NOT NULL") ?? 0
        }
        #expect(bodies == 1, "the public view hides nothing here: its row says so, and the bytes are stored once")
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let (response, body) = try await client.text("/feeds/family.ics")
            #expect(response.status == .ok && body == firstBody && response.headers[.eTag] == firstTag)
            #expect(parts.catalog.compileCount == 0, "served from the store's copy")
            let (again, _) = try await client.text("/feeds/family.ics", headers: [.ifNoneMatch: firstTag ?? ""])
            #expect(again.status == .notModified)
            #expect(try await client.text("/feeds/family.json").0.status == .ok)
            #expect(parts.catalog.compileCount == 1, "JSON needs the compiled series")

            // A change: the kept bytes are of the old revision, so the next read compiles and keeps the new.
            _ = try await CountdownService(store: parts.store).add(
                Countdown(uid: "new@tests", title: "Brand new", target: .date(CivilDate(year: 2027, month: 4, day: 1))), toFeed: "family")
            await parts.catalog.refresh()
            let (changed, changedBody) = try await client.text("/feeds/family.ics")
            #expect(changed.status == .ok && changedBody.contains("Brand new") && changed.headers[.eTag] != firstTag)
            #expect(parts.catalog.compileCount == 2)
            #expect(try await Self.kept(parts, "family", view: .classified).bytes?.body == ByteBuffer(string: changedBody))
        }
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let (response, body) = try await client.text("/feeds/family.ics")
            #expect(response.status == .ok && body.contains("Brand new") && parts.catalog.compileCount == 0, "the new revision was kept")
        }
        // Another build (or base URL) may write other bytes: it renders its own.
        try await fixture.withServer(adjust: { $0.build = "next" }) { client, parts in
            let (response, body) = try await client.text("/feeds/family.ics")
            #expect(response.status == .ok && body.contains("Brand new") && parts.catalog.compileCount == 1)
        }
        // The same build named by a rebuilt binary (SwiftPM did not always record a new commit): it renders its own too.
        try await fixture.withServer(adjust: { $0.build = "next"; $0.executable = "4096-1764000000" }) { client, parts in
            let (response, _) = try await client.text("/feeds/family.ics")
            #expect(response.status == .ok && parts.catalog.compileCount == 1)
            _ = try await Self.kept(parts, "family")
        }
        try await fixture.withServer(adjust: { $0.build = "next"; $0.executable = "4096-1764000000" }) { client, parts in
            let (response, _) = try await client.text("/feeds/family.ics")
            #expect(response.status == .ok && parts.catalog.compileCount == 0, "and keeps them for its next start")
        }
    }

    /// A view that hides something (a busy token link) keeps its own bytes,
    /// and a restarted server serves each link only its own view's.
    @Test func eachLinkIsAnsweredWithItsOwnViewsKeptExport() async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        try fixture.feed("private", calendar: ServerFixture.family, yaml: "public: false\n")
        let secret = try await fixture.withServer(adjust: { _ in }) { client, parts in
            let (secret, _) = try await CountdownService(store: parts.store).createFeedToken(feed: "private", label: "colleagues", visibility: .busy)
            await parts.catalog.refresh()
            let (response, body) = try await client.text("/t/\(secret)/feeds/private.ics")
            #expect(response.status == .ok && body.contains("SUMMARY:Busy"), "\(response.status) \(body)")
            #expect(try await Self.kept(parts, "private", view: .busy).bytes?.body == ByteBuffer(string: body))
            #expect(try await client.text("/feeds/private.ics").0.status == .notFound)
            return secret
        }
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let (response, body) = try await client.text("/t/\(secret)/feeds/private.ics")
            #expect(response.status == .ok && body.contains("SUMMARY:Busy") && !body.contains("Christmas"))
            #expect(parts.catalog.compileCount == 0)
            #expect(try await client.text("/feeds/private.ics").0.status == .notFound, "no public view of a private feed, kept or not")
            #expect(try await client.text("/t/\(String(repeating: "x", count: 22))/feeds/private.ics").0.status == .notFound)
        }
    }

    /// An export larger than its share of `--compiled-mb` (an eighth) is not
    /// held by the compilation: it is kept in the store and sent from there a
    /// chunk at a time, with the same bytes and ETag as when held.
    @Test func aCalendarLargerThanItsShareOfTheBudgetIsSentFromTheStore() async throws {
        let fixture = try ServerFixture(transport: .live, backend: .sqlite)
        try fixture.feed("days", calendar: CompileOnDemandTests.days(400))
        let (heldBody, heldTag, heldBytes) = try await fixture.withServer(adjust: { _ in }) { client, parts in
            let (response, body) = try await client.text("/feeds/days.ics")
            let held = try #require(parts.catalog.inMemory(slug: "days"))
            #expect(held.exported.streamed == nil, "the default budget holds it")
            _ = try await Self.kept(parts, "days", view: .classified)
            return (body, try #require(response.headers[.eTag]), held.approximateBytes)
        }
        #expect(heldBody.utf8.count > 40_000)
        try await fixture.withServer(adjust: { $0.compiledBytes = 256 << 10 }) { client, parts in   // 32 KB an export at most
            let (response, body) = try await client.text("/feeds/days.ics")
            #expect(response.status == .ok && body == heldBody && response.headers[.eTag] == heldTag)
            #expect(response.headers[.contentLength] == "\(heldBody.utf8.count)")
            #expect(parts.catalog.compileCount == 0, "sent from the store's copy, not compiled")
            #expect(try await client.text("/feeds/days.ics", headers: [.ifNoneMatch: heldTag]).0.status == .notModified)

            // Compiled for the JSON, the feed still does not hold its calendar.
            #expect(try await client.text("/feeds/days.json").0.status == .ok)
            let compiled = try #require(await parts.catalog.feed(slug: "days"))
            #expect(compiled.exported.streamed != nil && compiled.approximateBytes <= heldBytes - heldBody.utf8.count)
            let (again, againBody) = try await client.text("/feeds/days.ics")
            #expect(again.status == .ok && againBody == heldBody && again.headers[.eTag] == heldTag)
            let download = try await client.execute(uri: "/api/feeds/days/export", method: .get, headers: fixture.admin)
            #expect(download.status == .ok && String(buffer: download.body) == heldBody, "the owner's download too")
        }
    }
}
