import Countdowns
@testable import CountdownStore
@testable import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Rules
import ServerTestSupport
import Services
import SQLiteStore
import Subscriptions
import Synchronization
import Testing

/// Issue #26, part 1, in the admin API and the web app: a source added there
/// (not in a feed file) takes the rules a source has in `feeds/*.yaml`. They
/// are checked when written (a misspelt key is named, not ignored), kept with
/// the subscription, and saving them fetches the source again in full, so a
/// 304 cannot leave the old rules' result in the feed.
struct SubscriptionRulesTests {
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//tminus tests//subscription rules//EN\r
        BEGIN:VEVENT\r
        UID:trip@rules.test\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Museum trip\r
        STATUS:CONFIRMED\r
        DTSTART;VALUE=DATE:20270115\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:staff@rules.test\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Staff training\r
        STATUS:TENTATIVE\r
        DTSTART;VALUE=DATE:20270110\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:concert@rules.test\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Spring concert\r
        DTSTART;VALUE=DATE:20270320\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    /// The If-None-Match of every request the school's server saw.
    /// A guard against a hang, not a margin: a loaded machine (the suite beside two CPU-bound processes) took more
    /// than 10 s for a loopback fetch, the source failed, and the replica test read that as the product's race
    /// (issue #59, 15). Each test waits on the fetch itself.
    static let fetchTimeout: Duration = .seconds(300)

    final class Seen: Sendable {
        let conditions = Mutex<[String?]>([])
    }

    /// A school portal's export with an ETag: 304 when the client has it.
    static func school(_ seen: Seen) -> some ApplicationProtocol {
        let router = Router()
        router.get("school.ics") { request, _ -> Response in
            seen.conditions.withLock { $0.append(request.headers[.ifNoneMatch]) }
            if request.headers[.ifNoneMatch] == "\"s1\"" { return Response(status: .notModified, headers: [.eTag: "\"s1\""]) }
            return Response(status: .ok, headers: [.contentType: "text/calendar", .eTag: "\"s1\""], body: .init(byteBuffer: ByteBuffer(string: calendar)))
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    static func titles(_ client: any TestClientProtocol, _ fixture: ServerFixture) async throws -> [String] {
        let body = try await client.text("/api/feeds/school/countdowns", headers: fixture.admin).1
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        return try #require(json["countdowns"] as? [[String: Any]]).compactMap { $0["title"] as? String }.sorted()
    }

    static func send(_ client: any TestClientProtocol, _ fixture: ServerFixture, _ method: HTTPRequest.Method, _ uri: String,
                     _ body: [String: Any?]) async throws -> (TestResponse, String) {
        let data = try JSONSerialization.data(withJSONObject: body.mapValues { $0 ?? NSNull() })
        let response = try await client.execute(uri: uri, method: method, headers: fixture.admin + [.contentType: "application/json"],
                                                body: ByteBuffer(bytes: data))
        return (response, String(buffer: response.body))
    }

    // MARK: the rules' text

    @Test func rulesCompileAndSayNothingWhenEmpty() throws {
        let rules = try #require(try SubscriptionRules.compile("exclude:\n  status: [tentative]\nchange:\n  prefix: 'School: '\n"))
        #expect(rules.label == "source" && !rules.filter.isEmpty && rules.change.prefix == "School: ")
        #expect(try SubscriptionRules.compile("") == nil)
        #expect(try SubscriptionRules.compile("# nothing yet\n") == nil)
        #expect(try SubscriptionRules.checked("  \n") == nil)
        #expect(try SubscriptionRules.checked("{\"change\": {\"suffix\": \" (Anna)\"}}")?.text == "{\"change\": {\"suffix\": \" (Anna)\"}}\n",
                "a JSON object is YAML too")
    }

    @Test(arguments: [
        ("exlude:\n  status: [tentative]\n", "exlude: is not a rule"),
        ("include:\n  stauts: [confirmed]\n", "include.stauts: is not a rule"),
        ("include:\n  duration: {atleast: PT1H}\n", "include.duration.atleast: is not a rule"),
        ("change:\n  replace: [{pattern: a, whit: b}]\n", "change.replace[0].whit: is not a rule"),
        ("exclude:\n  status: [maybe]\n", "exclude.status 'maybe' is not one of"),
        ("change:\n  strip: [description]\n  keep: [location]\n", "strip: and keep:"),
        ("include:\n  summary: '(a)\\1'\n", "summary pattern"),
        ("- exclude\n", "a mapping of include:, exclude: and change:"),
        ("include: [oops\n", "not valid YAML"),
        ("exclude:\n  allDay: sometimes\n", "exclude.allDay: expected true or false"),
    ])
    func badRulesAreRefusedNamingTheKey(text: String, message: String) {
        do {
            _ = try SubscriptionRules.compile(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    /// "Billion laughs": each anchor repeats the one before ten times. These
    /// 420 bytes took 18 s of a core to decode before `BoundedYAML`; seven
    /// levels would have taken minutes and gigabytes.
    @Test func nestedAliasesAreRefusedBeforeTheyExpand() throws {
        var laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...7 { laughs += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        // Refused by the count, before any decoding expands them (no timing here: the message says which check refused).
        do {
            _ = try SubscriptionRules.compile(laughs + "include:\n  categories: *a7\n")
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains("more than 100000 values"), "\(error)")
        }
        do {
            _ = try FeedDefinitionLoader.load(text: laughs + "name: Laughs\n", file: URL(fileURLWithPath: "/feeds/laughs.yaml"))
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains("more than 100000 values"), "\(error)")
        }
        // Aliases within reason still work, as YAML allows.
        let shared = try #require(try SubscriptionRules.compile("include:\n  categories: &c [Exam]\nexclude:\n  categories: *c\n"))
        #expect(!shared.filter.isEmpty)
    }

    @Test func overlongRulesAreRefused() {
        #expect(throws: SubscriptionRules.Invalid.self) { try SubscriptionRules.compile("change:\n  prefix: '" + String(repeating: "x", count: 20_000) + "'\n") }
    }

    // MARK: the admin API

    @Test func theAPISubscribesWithRulesChangesThemAndFetchesInFull() async throws {
        let seen = Seen()
        try await Self.school(seen).test(.live) { school in
            let url = "http://127.0.0.1:\(try #require(school.port))/school.ics"
            let fixture = try ServerFixture(backend: .sqlite)
            try Data("name: School\ntimeZone: Europe/Budapest\n".utf8).write(to: fixture.feeds.appendingPathComponent("school.yaml"))
            try await fixture.withServer { client in
                // Bad rules subscribe nothing and fetch nothing.
                let bad = try await Self.send(client, fixture, .post, "/api/feeds/school/sources", ["url": url, "rules": "exlude:\n  status: [tentative]\n"])
                #expect(bad.0.status == .unprocessableContent && bad.1.contains("exlude: is not a rule"), "\(bad.1)")
                #expect(seen.conditions.withLock { $0.isEmpty })
                #expect(try await Self.titles(client, fixture).isEmpty)

                let created = try await Self.send(client, fixture, .post, "/api/feeds/school/sources",
                                                  ["url": url, "rules": "exclude:\n  status: [tentative]\nchange:\n  prefix: 'School: '\n"])
                #expect(created.0.status == .created, "\(created.1)")
                #expect(created.1.contains("\"subscribed\":true") && created.1.contains("\"added\":2"), "\(created.1)")
                #expect(try await Self.titles(client, fixture) == ["School: Museum trip", "School: Spring concert"])

                // New rules: refused ones change nothing; good ones fetch the whole calendar again.
                let typo = try await Self.send(client, fixture, .patch, "/api/feeds/school/sources", ["url": url, "rules": "change:\n  sufix: ' (school)'\n"])
                #expect(typo.0.status == .unprocessableContent && typo.1.contains("change.sufix: is not a rule"), "\(typo.1)")
                // The first refresh keeps the ETag (the subscribing fetch is not conditional); the second is a 304.
                _ = try await client.execute(uri: "/api/feeds/school/refresh", method: .post, headers: fixture.admin)
                _ = try await client.execute(uri: "/api/feeds/school/refresh", method: .post, headers: fixture.admin)
                #expect(seen.conditions.withLock { $0.last } == "\"s1\"", "a refresh is a conditional GET (304)")
                let changed = try await Self.send(client, fixture, .patch, "/api/feeds/school/sources", ["url": url, "rules": "change:\n  suffix: ' (school)'\n"])
                #expect(changed.0.status == .ok && changed.1.contains("suffix"), "\(changed.1)")
                #expect(seen.conditions.withLock { $0.last } == .some(nil), "new rules fetch the calendar in full, not a 304")
                #expect(try await Self.titles(client, fixture) == ["Museum trip (school)", "Spring concert (school)", "Staff training (school)"])

                // The preview runs the subscription's rules, by the same code.
                let preview = try await client.text("/api/feeds/school/rules", headers: fixture.admin)
                #expect(preview.0.status == .ok && preview.1.contains("source.change.suffix"), "\(preview.1.prefix(400))")

                let list = try await client.text("/api/feeds/school/sources", headers: fixture.admin).1
                #expect(list.contains("\"hasLogin\":false") && list.contains("\"definedInFile\":false") && list.contains("(school)"), "\(list)")

                // Removing the rules (null), an address it does not fetch, and stopping.
                let cleared = try await Self.send(client, fixture, .patch, "/api/feeds/school/sources", ["url": url, "rules": nil])
                #expect(cleared.0.status == .ok && !cleared.1.contains("\"rules\""), "\(cleared.1)")
                #expect(try await Self.titles(client, fixture) == ["Museum trip", "Spring concert", "Staff training"])
                let unknown = try await Self.send(client, fixture, .patch, "/api/feeds/school/sources", ["url": url + "?other", "rules": "change: {prefix: x}"])
                #expect(unknown.0.status == .notFound)
                let escaped = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                #expect(try await client.execute(uri: "/api/feeds/school/sources?url=\(escaped)", method: .delete, headers: fixture.admin).status == .noContent)
                #expect(try await client.text("/api/feeds/school/sources", headers: fixture.admin).1.contains("\"subscribed\":false"))
            }
        }
    }

    /// Regression (issue #59, 8): a read-only token's rules preview made the server fetch the feed's sources
    /// with their kept logins (45 fetches from 15 requests), though refreshing them was refused. The preview
    /// needs what managing sources needs, and a feed is previewed a few times a minute at most.
    @Test func aViewersRulesPreviewFetchesNothingAndPreviewsAreLimited() async throws {
        let seen = Seen()
        try await Self.school(seen).test(.live) { school in
            let url = "http://127.0.0.1:\(try #require(school.port))/school.ics"
            let fixture = try ServerFixture(backend: .sqlite)
            try await fixture.withServer(adjust: { _ in }) { client, parts in
                let service = parts.dependencies.parts.service
                for login in ["olga", "vic"] { try await service.addPerson(login: login, password: "a long enough password", cost: 4) }
                try await service.createSpace(slug: "class", name: "Class", owner: "olga")
                try await service.createFeed(Feed(slug: "school", name: "School", isPublic: false), inSpace: "class")
                try await service.setMember(space: "class", login: "vic", role: .viewer, replacing: false)
                let created = try await Self.send(client, fixture, .post, "/api/feeds/school/sources", ["url": url])
                #expect(created.0.status == .created, "\(created.1)")
                let fetched = seen.conditions.withLock { $0.count }
                let vic = try await service.createPersonToken(login: "vic", label: "script", readOnly: true).secret
                for _ in 0..<10 {
                    let refused = try await client.text("/api/feeds/school/rules", headers: [.authorization: "Bearer \(vic)"])
                    #expect(refused.0.status == .forbidden, "\(refused.0.status) \(refused.1.prefix(200))")
                }
                #expect(seen.conditions.withLock { $0.count } == fetched, "a viewer's preview fetches nothing")

                for _ in 0..<4 { #expect(try await client.text("/api/feeds/school/rules", headers: fixture.admin).0.status == .ok) }
                let often = try await client.text("/api/feeds/school/rules", headers: fixture.admin)
                #expect(often.0.status == .tooManyRequests && often.0.headers[.retryAfter] != nil, "\(often.1)")
                #expect(seen.conditions.withLock { $0.count } == fetched + 4, "four previews, four fetches")
            }
        }
    }

    @Test func aSourceOfTheFeedFileKeepsItsRulesThere() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await fixture.withServer { client in
            let location = fixture.directory.appendingPathComponent("family.ics").path
            let answer = try await Self.send(client, fixture, .patch, "/api/feeds/family/sources", ["url": location, "rules": "change: {prefix: x}"])
            #expect(answer.0.status == .conflict && answer.1.contains("feed file"), "\(answer.1)")
        }
    }

    /// Rules stored by an older or a tampered database that no longer compile:
    /// the source is reported as failing, and never imported without them.
    @Test func storedRulesThatNoLongerCompileStopTheSourceWithAClearError() async throws {
        let seen = Seen()
        try await Self.school(seen).test(.live) { school in
            let url = "http://127.0.0.1:\(try #require(school.port))/school.ics"
            let fixture = try ServerFixture(backend: .sqlite)
            try Data("name: School\n".utf8).write(to: fixture.feeds.appendingPathComponent("school.yaml"))
            try await fixture.withServer { client in
                let created = try await Self.send(client, fixture, .post, "/api/feeds/school/sources", ["url": url])
                #expect(created.0.status == .created, "\(created.1)")
            }
            let store = try SQLiteCountdownStore(path: fixture.databasePath)
            try await store.transaction { tx in
                let feed = try #require(try await tx.feedRow(slug: "school", lock: false))
                var source = try #require(try await tx.sourceRow(feedId: try feed.savedID(), location: url))
                #expect(source.subscribed)
                source.rules = "exclude:\n  status: [someday]\n"
                _ = try await tx.save(source)
            }
            try await store.close()
            let before = seen.conditions.withLock { $0.count }
            try await fixture.withServer { client in
                _ = try await client.execute(uri: "/api/feeds/school/refresh", method: .post, headers: fixture.admin)
                let health = try await client.text("/api/health", headers: fixture.admin).1
                #expect(health.contains("its rules cannot be used") && health.contains("someday"), "\(health.prefix(600))")
            }
            #expect(seen.conditions.withLock { $0.count } == before, "not fetched without its rules")
        }
    }

    // MARK: a feed file's rules

    /// A reload (SIGHUP) that changes a URL source's rules in its feed file:
    /// before, the source was asked with its ETag, answered 304, and the feed
    /// kept the old rules' result until the calendar itself changed.
    @Test func aReloadThatChangesAFileSourcesRulesFetchesItInFull() async throws {
        let seen = Seen()
        try await Self.school(seen).test(.live) { school in
            let url = "http://127.0.0.1:\(try #require(school.port))/school.ics"
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-reload-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            func define(_ rules: String) throws {
                try Data("name: School\nsources:\n  - url: \(url)\n\(rules)".utf8).write(to: folder.appendingPathComponent("school.yaml"))
            }
            let store = InMemoryCountdownStore()
            let loader = FeedLoader(service: store.service, fetcher: CalendarFetcher(maxBytes: 1 << 20, timeout: Self.fetchTimeout, allowPrivate: true),
                                    directory: folder, logger: Logger(label: "test"))
            func titles() async throws -> [String] {
                try await store.feedContents(slug: "school", reusing: [:])?.countdowns.map(\.title).sorted() ?? []
            }
            func refresh() async { for (slug, source) in loader.urlSources { await loader.refresh(feed: slug, source: source) } }
            try define("    exclude:\n      status: [tentative]\n")
            await loader.reload()
            await refresh()
            await refresh()
            #expect(seen.conditions.withLock { $0 } == [nil, "\"s1\""], "a full fetch, then a conditional one")
            #expect(try await titles() == ["Museum trip", "Spring concert"])

            try define("    change:\n      prefix: 'School: '\n")
            await loader.reload()
            #expect(seen.conditions.withLock { $0.last } == .some(nil), "the new rules fetch in full")
            #expect(try await titles() == ["School: Museum trip", "School: Spring concert", "School: Staff training"])
            let count = seen.conditions.withLock { $0.count }
            await loader.reload()
            #expect(seen.conditions.withLock { $0.count } == count, "a reload with the same rules fetches nothing")

            // Rules edited while the server was down: the restarted server knows
            // from the store which rules the last import went through.
            try define("    change:\n      suffix: ' (school)'\n")
            let restarted = FeedLoader(service: store.service, fetcher: CalendarFetcher(maxBytes: 1 << 20, timeout: Self.fetchTimeout, allowPrivate: true),
                                       directory: folder, logger: Logger(label: "test"))
            await restarted.reload()
            #expect(await restarted.refreshDueSources(now: Date()) == 1, "due at once, though fetched a moment ago")
            #expect(seen.conditions.withLock { $0.last } == .some(nil), "and fetched in full")
            #expect(try await titles() == ["Museum trip (school)", "Spring concert (school)", "Staff training (school)"])
            #expect(await restarted.refreshDueSources(now: Date()) == 0, "then not due until its refresh interval")
        }
    }

    /// Two replicas on one store: rules saved through one must not be undone by
    /// the other's view of the subscriptions, read before the change (it saw the
    /// digest differ, fetched in full with the old rules, and the two took turns).
    @Test func aReplicaWithAnOlderViewOfTheSubscriptionsDoesNotUndoNewRules() async throws {
        let seen = Seen()
        try await Self.school(seen).test(.live) { school in
            let url = "http://127.0.0.1:\(try #require(school.port))/school.ics"
            let store = InMemoryCountdownStore()
            try await store.service.createFeed(Feed(slug: "school"))
            func replica() -> FeedLoader {
                FeedLoader(service: store.service, fetcher: CalendarFetcher(maxBytes: 1 << 20, timeout: Self.fetchTimeout, allowPrivate: true),
                           directory: nil, logger: Logger(label: "test"))
            }
            let first = replica(), second = replica()
            _ = try await store.service.importAndSubscribe(Array(Self.calendar.utf8), intoFeed: "school", options: ImportOptions(source: url, sync: true),
                                                           location: url, importedWith: FeedLoader.fingerprint(subscriptionRules: nil))
            await first.reloadSubscriptions()
            await second.reloadSubscriptions()
            #expect(try await store.service.setSubscriptionRules(feed: "school", location: url, rules: "exclude:\n  status: [tentative]\n"))
            await first.rulesChanged(feed: "school", location: url)
            let titles = try await store.feedContents(slug: "school", reusing: [:])?.countdowns.map(\.title).sorted()
            #expect(titles == ["Museum trip", "Spring concert"])
            let fetches = seen.conditions.withLock { $0.count }
            #expect(await second.refreshDueSources(now: Date()) == 0, "the second replica reads the new rules first: nothing is due")
            #expect(seen.conditions.withLock { $0.count } == fetches)
            #expect(try await store.feedContents(slug: "school", reusing: [:])?.countdowns.map(\.title).sorted() == titles)
        }
    }

    // MARK: the web app

    @Test func theImportPageTakesRulesWhenItSubscribes() async throws {
        let seen = Seen()
        try await Self.school(seen).test(.live) { school in
            let url = "http://127.0.0.1:\(try #require(school.port))/school.ics"
            let fixture = try ServerFixture(transport: .live)
            try Data("name: School\n".utf8).write(to: fixture.feeds.appendingPathComponent("school.yaml"))
            try await fixture.withServer(adjust: { _ in }) { client, parts in
                try await WebAppSignIn.setPassword(parts.store)
                var browser = Browser(client: client)
                try await browser.signIn(WebAppSignIn.password)
                _ = try await browser.get("/app/feeds/school/import")
                let refused = try await browser.postMultipart("/app/feeds/school/import", [
                    ("url", .text(url)), ("keep", .text("on")), ("rules", .text("change:\n  prefx: 'School: '\n")), ("file", .file("", Data())),
                ])
                #expect(refused.status == .unprocessableContent && refused.text.contains("change.prefx: is not a rule"), "\(refused.text.prefix(300))")
                #expect(try await parts.store.subscriptions().isEmpty && seen.conditions.withLock { $0.isEmpty }, "nothing fetched, nothing kept")
                let imported = try await browser.postMultipart("/app/feeds/school/import", [
                    ("url", .text(url)), ("keep", .text("on")), ("rules", .text("exclude:\n  status: [tentative]\n")), ("file", .file("", Data())),
                ])
                #expect(imported.status == .ok && imported.text.contains("added"), "\(imported.text.prefix(300))")
                #expect(try await Self.titles(client, fixture) == ["Museum trip", "Spring concert"], "the first import already went through them")
                #expect(try await parts.store.subscriptions().first?.rules == "exclude:\n  status: [tentative]\n")
                // The next refresh is an ordinary one: the import recorded the rules it went through.
                _ = try await client.execute(uri: "/api/feeds/school/refresh", method: .post, headers: fixture.admin)
                #expect(try await Self.titles(client, fixture) == ["Museum trip", "Spring concert"])
                // Imported again without rules (as to change its login): it keeps them, and so does what it shows.
                let again = try await browser.postMultipart("/app/feeds/school/import", [("url", .text(url)), ("keep", .text("on")), ("file", .file("", Data()))])
                #expect(again.status == .ok)
                #expect(try await parts.store.subscriptions().first?.rules == "exclude:\n  status: [tentative]\n")
                #expect(try await Self.titles(client, fixture) == ["Museum trip", "Spring concert"])
            }
        }
    }

    @Test func theWebAppEditsASubscriptionsRules() async throws {
        let seen = Seen()
        try await Self.school(seen).test(.live) { school in
            let url = "http://127.0.0.1:\(try #require(school.port))/school.ics"
            let fixture = try ServerFixture(transport: .live, backend: .sqlite)
            try Data("name: School\n".utf8).write(to: fixture.feeds.appendingPathComponent("school.yaml"))
            try await fixture.withServer(adjust: { _ in }) { client, parts in
                try await WebAppSignIn.setPassword(parts.store)
                var browser = Browser(client: client)
                try await browser.signIn(WebAppSignIn.password)
                _ = try await browser.get("/app/feeds/school/import")
                let imported = try await browser.postMultipart("/app/feeds/school/import", [("url", .text(url)), ("keep", .text("on")), ("file", .file("", Data()))])
                #expect(imported.status == .ok, "\(imported.text.prefix(300))")
                let escaped = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let feedPage = try await browser.get("/app/feeds/school")
                #expect(feedPage.text.contains("/app/feeds/school/sources/rules?location=\(escaped)"), "the source links to its rules")

                let form = try await browser.get("/app/feeds/school/sources/rules?location=\(escaped)")
                #expect(form.status == .ok && form.text.contains("name=\"rules\""))
                let refused = try await browser.post("/app/feeds/school/sources/rules", ["location": url, "rules": "exclude:\n  stat: [tentative]\n"])
                #expect(refused.status == .unprocessableContent && refused.text.contains("exclude.stat: is not a rule"), "\(refused.text.prefix(300))")
                #expect(refused.text.contains("stat: [tentative]"), "what was written is shown again")
                #expect(try await parts.store.subscriptions().first?.rules == nil, "nothing saved")

                let saved = try await browser.post("/app/feeds/school/sources/rules", ["location": url, "rules": "exclude:\n  status: [tentative]\n"])
                #expect(saved.status == .seeOther)
                #expect(try await Self.titles(client, fixture) == ["Museum trip", "Spring concert"], "fetched again with the rules")
                let after = try await browser.get("/app/feeds/school")
                #expect(after.text.contains("with its own rules") && after.text.contains("Rules saved"), "\(after.text.prefix(200))")

                let notFetched = try await browser.get("/app/feeds/school/sources/rules?location=https%3A%2F%2Fexample.org%2Fx.ics")
                #expect(notFetched.status == .notFound)
            }
            // Kept across a restart: the next refresh still applies them.
            try await fixture.withServer(adjust: { _ in }) { client, _ in
                _ = try await client.execute(uri: "/api/feeds/school/refresh", method: .post, headers: fixture.admin)
                #expect(try await Self.titles(client, fixture) == ["Museum trip", "Spring concert"])
            }
        }
    }
}
