import Countdowns
import CountdownStore
@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ICalendar
import ServerTestSupport
import Services
import Testing
import TminusServer

/// The web app at /app, through a real server on loopback, the way a browser
/// without JavaScript uses it: cookies kept, the CSRF token read from each form,
/// forms posted urlencoded or multipart. `make browser` walks the same paths in
/// Chromium, with the script on.
@Suite struct WebAppPagesTests {
    @Test func signInNeedsTheRightPasswordAndGivesStrictHttpOnlyCookies() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timeZone: Europe/Berlin")
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            try await WebAppSignIn.setPassword(parts.store)
            var browser = Browser(client: client)
            let start = try await browser.get("/app")
            #expect(start.status == .seeOther && start.headers[.location] == "/app/signin")
            let csrfCookie = try #require(start.headers[values: .setCookie].first { $0.hasPrefix("tminus_csrf=") })
            let form = try await browser.get("/app/signin")
            #expect(form.status == .ok && form.headers[values: .setCookie].isEmpty, "the cookie is set once")
            #expect(csrfCookie.contains("HttpOnly") && csrfCookie.contains("SameSite=Strict") && csrfCookie.contains("Path=/app"))
            #expect(form.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)

            let wrong = try await browser.post("/app/signin", ["login": "owner", "password": "not the password"])
            #expect(wrong.status == .unauthorized && wrong.text.contains("not right"))
            #expect(browser.cookies["tminus_session"] == nil)

            let right = try await browser.post("/app/signin", ["login": "owner", "password": WebAppSignIn.password])
            #expect(right.status == .seeOther && right.headers[.location] == "/app")
            let session = try #require(right.headers[values: .setCookie].first { $0.hasPrefix("tminus_session=") })
            #expect(session.contains("HttpOnly") && session.contains("SameSite=Strict"))
            #expect(!session.contains("Secure"), "plain http on loopback: no Secure flag")
            let feeds = try await browser.get("/app")
            #expect(feeds.status == .ok && feeds.text.contains("Family") && feeds.text.contains("Signed in."))

            // The store keeps the session under the id's hash only.
            let sessionID = try #require(browser.cookies["tminus_session"])
            #expect(try await parts.dependencies.parts.service.persistedValue(for: "session:" + sessionID) != nil)
            let hashed = try await parts.store.read { try await $0.value(for: .entry(keyHash: Secret.hash("session:" + sessionID))) }
            let plain = try await parts.store.read { try await $0.value(for: .entry(keyHash: "session:" + sessionID)) }
            #expect(hashed != nil && plain == nil)

            let out = try await browser.post("/app/signout", [:])
            #expect(out.status == .seeOther)
            #expect(try await parts.dependencies.parts.service.persistedValue(for: "session:" + sessionID) == nil)
            #expect(try await browser.get("/app").status == .seeOther)
        }
    }

    /// What tminus changed when it read a countdown (issue #39: a misspelt UNTIL
    /// left out) is shown on its edit page, beside the form.
    @Test func theEditPageSaysWhatWasChangedOnTheWayIn() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("choir", calendar: """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//EN\r
            BEGIN:VEVENT\r
            UID:choir@example.com\r
            DTSTAMP:20260101T000000Z\r
            DTSTART:20261201T180000Z\r
            SUMMARY:Choir\r
            RRULE:FREQ=WEEKLY;UNTL=20261223T000000Z\r
            END:VEVENT\r
            END:VCALENDAR\r

            """)
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, _ in
            let id = try #require(try await parts.store.countdowns(inFeed: "choir").first?.id)
            let edit = try await browser.get("/app/countdowns/\(id)/edit")
            #expect(edit.status == .ok && edit.text.contains("class=\"read-warnings\""))
            #expect(edit.text.contains("UNTL is not a rule part (did you mean UNTIL?)"), "\(edit.text.prefix(400))")
        }
    }

    /// An imported repeat reads as words on the feed's page, the rule as
    /// written kept as its tooltip (issue #40).
    @Test func anImportedRepeatReadsAsWordsOnTheFeedsPage() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("cafe", calendar: """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//EN\r
            BEGIN:VEVENT\r
            UID:cafe@example.com\r
            DTSTAMP:20260101T000000Z\r
            DTSTART:20261202T130000Z\r
            SUMMARY:Repair Café\r
            RRULE:FREQ=WEEKLY;BYDAY=WE;UNTIL=20270616T130000Z\r
            END:VEVENT\r
            END:VCALENDAR\r

            """)
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, _, _ in
            let page = try await browser.get("/app/feeds/cafe")
            #expect(page.text.contains("title=\"FREQ=WEEKLY;BYDAY=WE;UNTIL=20270616T130000Z\">every Wednesday until 16 June 2027</span>"),
                    "\(page.text)")
        }
    }

    /// Issue #63, 8 (left by that session): a feed whose file was removed from `feeds/` is kept and served
    /// as it was; `/api/health` said so, and now its page does too, with what to do.
    @Test func aFeedWhoseFileWasRemovedSaysSoOnItsPage() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("cafe", calendar: Self.concert)
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, _ in
            let before = try await browser.get("/app/feeds/cafe")
            #expect(before.status == .ok && !before.text.contains("was removed from the feeds folder"))
            try FileManager.default.removeItem(at: fixture.feeds.appendingPathComponent("cafe.yaml"))
            await parts.dependencies.loader.reload()
            let after = try await browser.get("/app/feeds/cafe")
            #expect(after.status == .ok && after.text.contains("Concert"), "still served as it was")
            #expect(after.text.contains("The file that defined this feed was removed from the feeds folder")
                    && after.text.contains("tminus feeds rm cafe"), "\(after.text)")
        }
    }

    @Test func formsWithoutTheirCSRFTokenChangeNothing() async throws {
        let fixture = try ServerFixture()
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, client in
            let forged = try await browser.post("/app/feeds", ["name": "Forged", "timeZone": "UTC"], csrf: "made-up-token")
            #expect(forged.status == .forbidden)
            #expect(forged.headers[.contentType]?.hasPrefix("text/html") == true && forged.text.contains("came from another site"),
                    "the app answers errors with a page, not the API's JSON")
            let missing = try await browser.post("/app/feeds", ["name": "Forged", "timeZone": "UTC"], csrf: .some(nil))
            #expect(missing.status == .forbidden)
            // A valid token for another browser's cookie is no good either.
            var other = Browser(client: client)
            _ = try await other.get("/app/signin")
            let stolen = try await browser.post("/app/feeds", ["name": "Forged", "timeZone": "UTC"], csrf: other.csrf)
            #expect(stolen.status == .forbidden)
            #expect(try await parts.store.feeds().isEmpty)
        }
    }

    /// Issue #22: the token used to be checked by each handler, by convention.
    /// Now one middleware checks every POST to the app before its route runs:
    /// a forged form is refused even where the handler reads no form at all,
    /// and before the route could say that the feed or countdown is missing.
    @Test func everyPostToTheAppIsCheckedBeforeItsRouteRuns() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family)
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, _ in
            let id = try #require(try await parts.store.countdowns(inFeed: "family").first?.id)
            let routes = ["feeds", "feeds/family/edit", "feeds/family/delete", "feeds/family/tokens", "feeds/family/refresh",
                          "feeds/family/unsubscribe", "feeds/family/tokens/1/revoke", "feeds/family/countdowns", "countdowns/\(id)/edit",
                          "countdowns/\(id)/duplicate", "countdowns/\(id)/delete", "undo", "countdowns/\(id)/complete", "countdowns/\(id)/reopen",
                          "feeds/family/import", "signin", "signout", "signout-everywhere", "setup/not-a-token", "feeds/nope/delete"]
            for route in routes {
                let forged = try await browser.post("/app/" + route, ["name": "Forged"], csrf: "made-up-token")
                #expect(forged.status == .forbidden, "POST /app/\(route)")
            }
            #expect(try await parts.store.feeds().map(\.feed.slug) == ["family"])
            #expect(try await parts.store.countdowns(inFeed: "family").count == 3, "nothing was deleted, duplicated or ticked off")
            #expect(try await browser.get("/app").status == .ok, "and the session still stands")
        }
    }

    @Test func fiveFailedSignInsInAMinuteSlowThatClientDown() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            try await WebAppSignIn.setPassword(parts.store)
            var browser = Browser(client: client)
            _ = try await browser.get("/app/signin")
            for _ in 0..<5 { #expect(try await browser.post("/app/signin", ["login": "owner", "password": "guess"]).status == .unauthorized) }
            let throttled = try await browser.post("/app/signin", ["login": "owner", "password": WebAppSignIn.password])
            #expect(throttled.status == .tooManyRequests)
            let wait = try #require(throttled.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...60).contains(wait))
            fixture.setClock(fixture.clockNow.addingTimeInterval(61))
            #expect(try await browser.post("/app/signin", ["login": "owner", "password": WebAppSignIn.password]).status == .seeOther)
        }
    }

    /// Issue #27, 2: the limit was checked before the body and a failure
    /// counted after bcrypt, so 60 parallel guesses all got checked. An attempt
    /// now counts when it arrives: of 20 at once, 5 are checked.
    @Test func parallelGuessesAreCountedBeforeTheyAreChecked() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            try await WebAppSignIn.setPassword(parts.store)
            var browser = Browser(client: client)
            _ = try await browser.get("/app/signin")
            let guesser = browser
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        var copy = guesser
                        return try await copy.post("/app/signin", ["login": "owner", "password": "guess number \(index)"]).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count == 5, "\(statuses)")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 15, "\(statuses)")
        }
    }

    @Test func behindATrustedProxyEachForwardedClientIsThrottledAlone() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { $0.trustForwardedFor = true }) { client, parts in
            try await WebAppSignIn.setPassword(parts.store)
            var guesser = Browser(client: client, extraHeaders: [HTTPField.Name("X-Forwarded-For")!: "198.51.100.7, 203.0.113.5"])
            _ = try await guesser.get("/app/signin")
            for _ in 0..<5 { #expect(try await guesser.post("/app/signin", ["login": "owner", "password": "guess"]).status == .unauthorized) }
            #expect(try await guesser.post("/app/signin", ["login": "owner", "password": WebAppSignIn.password]).status == .tooManyRequests)
            var owner = Browser(client: client, extraHeaders: [HTTPField.Name("X-Forwarded-For")!: "203.0.113.9"])
            _ = try await owner.get("/app/signin")
            #expect(try await owner.post("/app/signin", ["login": "owner", "password": WebAppSignIn.password]).status == .seeOther, "another client behind the same proxy")
        }
    }

    @Test func theSetupLinkSetsTheFirstPasswordOnceAndKeepsOnlyABcryptHash() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let token = try #require(try await parts.store.service.issueSetupLink())
            var browser = Browser(client: client)
            #expect(try await browser.get("/app/setup/not-the-token").status == .notFound)
            #expect(try await browser.get("/app/setup/\(token)").status == .ok)
            let short = try await browser.post("/app/setup/\(token)", ["login": "anna", "password": "short", "confirm": "short"])
            #expect(short.status == .unprocessableContent && short.text.contains("at least 10"))
            let differ = try await browser.post("/app/setup/\(token)", ["login": "anna", "password": WebAppSignIn.password, "confirm": WebAppSignIn.password + "!"])
            #expect(differ.status == .unprocessableContent && differ.text.contains("differ"))
            let badLogin = try await browser.post("/app/setup/\(token)", ["login": "Anna K", "password": WebAppSignIn.password, "confirm": WebAppSignIn.password])
            #expect(badLogin.status == .unprocessableContent && badLogin.text.contains("lower-case letters") && badLogin.text.contains("value=\"anna k\""))
            let done = try await browser.post("/app/setup/\(token)", ["login": "anna", "name": "Anna K.", "password": WebAppSignIn.password, "confirm": WebAppSignIn.password])
            #expect(done.status == .seeOther && browser.cookies["tminus_session"] != nil)
            let signedIn = try await browser.get("/app")
            #expect(signedIn.status == .ok && signedIn.text.contains("Signed in as Anna K."))
            #expect(try await browser.get("/app/setup/\(token)").status == .notFound, "the link works once")
            let anna = try #require(try await parts.store.read { try await $0.personRows(.login("anna")).first })
            let hash = try #require(anna.passwordHash)
            #expect(anna.isAdmin && hash.hasPrefix("$2b$12$") && !hash.contains(WebAppSignIn.password), "the first administrator, a bcrypt hash only")
            #expect(try await parts.store.service.issueSetupLink() == nil, "no setup link once someone has an account")
        }
    }

    /// Issue #22: the form's save kept its image, then the countdown, then moved
    /// it, in three transactions. A move refused at the end (the other feed has
    /// the UID) left the image stored and the edit saved. Now it is one use
    /// case and one transaction: the refusal keeps neither.
    @Test func aSaveRefusedAtTheMoveKeepsNeitherTheImageNorTheEdit() async throws {
        let fixture = try ServerFixture()
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, _ in
            let service = parts.store.service
            try await service.createFeed(Feed(slug: "trips"))
            try await service.createFeed(Feed(slug: "archive"))
            let shared = Countdown(uid: "kyoto@example.com", title: "Kyoto", target: .date(CivilDate(year: 2027, month: 4, day: 1)))
            let original = try await service.add(shared, toFeed: "trips")
            try await service.add(shared, toFeed: "archive")
            _ = try await browser.get("/app/countdowns/\(original.id!)/edit")
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 9, count: 64))
            let fields = WebAppSignIn.countdownFields(["title": "Kyoto in spring", "feed": "archive"]).filter { $0.0 != "image" } + [("image", .file("k.png", png))]
            let refused = try await browser.postMultipart("/app/countdowns/\(original.id!)/edit", fields)
            #expect(refused.status.code >= 400, "the other feed already has this UID")
            #expect(try await parts.store.image(StoredImage.scheme + SHA256Hex.of(png)) == nil, "the image is not kept")
            let after = try await parts.store.countdown(id: original.id!)
            #expect(after.feed == "trips" && after.countdown.title == "Kyoto" && after.countdown.sequence == 0, "the edit is not kept")
            #expect(after.countdown.presentation.image == nil)
        }
    }

    @Test func aFeedAndACountdownMadeInTheAppArePublishedAtOnce() async throws {
        let fixture = try ServerFixture()
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, client in
            _ = try await browser.get("/app/feeds/new")
            let wrongColour = try await browser.post("/app/feeds", ["name": "Trips 2027", "timeZone": "Europe/Budapest", "categoryColors": "Travel blue"])
            #expect(wrongColour.status == .unprocessableContent && wrongColour.text.contains("Birthday #FF2D55"))
            let created = try await browser.post("/app/feeds", ["name": "Trips 2027", "timeZone": "Europe/Budapest", "isPublic": "on",
                                                                "mode": "daily", "days": "30", "categoryColors": "Travel: #123456\nFun #abc"])
            #expect(created.status == .seeOther && created.headers[.location] == "/app/feeds/trips-2027")
            let bad = try await browser.postMultipart("/app/feeds/trips-2027/countdowns", WebAppSignIn.countdownFields(["date": "2027-13-40"]))
            #expect(bad.status == .unprocessableContent && bad.text.contains("date"))
            #expect(try await parts.store.countdowns(inFeed: "trips-2027").isEmpty, "a refused form saves nothing")
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 32))
            let badWithImage = try await browser.postMultipart("/app/feeds/trips-2027/countdowns",
                                                               WebAppSignIn.countdownFields(["date": "2027-13-40"]).filter { $0.0 != "image" } + [("image", .file("a.png", png))])
            #expect(badWithImage.status == .unprocessableContent)
            #expect(try await parts.store.image(StoredImage.scheme + SHA256Hex.of(png)) == nil, "nor the image it carried")

            let saved = try await browser.postMultipart("/app/feeds/trips-2027/countdowns", WebAppSignIn.countdownFields([:]))
            #expect(saved.status == .seeOther)
            let json = try await browser.get("/feeds/trips-2027.json")
            #expect(json.text.contains("\"title\":\"Kyoto\"") && json.text.contains("\"gradient\":[\"#FF0000\",\"#00FF00\"]"))
            let ics = try await browser.get("/feeds/trips-2027.ics")
            #expect(ics.text.contains("SUMMARY:Kyoto") && ics.text.contains("SEQUENCE:0") && ics.text.contains("CATEGORIES:Travel,Fun"))

            // Edit: the export changes, SEQUENCE rises.
            let id = try #require(try await parts.store.countdowns(inFeed: "trips-2027").first?.id)
            let edit = try await browser.get("/app/countdowns/\(id)/edit")
            #expect(edit.status == .ok && edit.text.contains("value=\"Kyoto\""))
            let edited = try await browser.postMultipart("/app/countdowns/\(id)/edit", WebAppSignIn.countdownFields(["title": "Kyoto in spring"]))
            #expect(edited.status == .seeOther)
            let after = try await browser.get("/feeds/trips-2027.ics")
            #expect(after.text.contains("SUMMARY:Kyoto in spring") && after.text.contains("SEQUENCE:1"))
            #expect(try await parts.store.feed(slug: "trips-2027")?.feed.categoryColors == ["Travel": "#123456", "Fun": "#AABBCC"])
            let stats = try await browser.get("/app/stats?period=year&at=2027-01-01")
            #expect(stats.text.contains("background:#123456\" aria-hidden=\"true\"></span> Travel"), "a category's colour from the feed form")
        }
    }

    /// Issue #27, 7: a new password kept every session alive.
    @Test func aNewPasswordEndsEverySession() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            try await WebAppSignIn.setPassword(parts.store)
            var laptop = Browser(client: client), phone = Browser(client: client)
            try await laptop.signIn(WebAppSignIn.password)
            try await phone.signIn(WebAppSignIn.password)
            #expect(try await phone.get("/app").status == .ok)
            try await parts.store.service.setPassword(login: "owner", to: "a brand new passphrase", cost: 4)   // what `tminus password owner` does
            await catalogPoll(parts.dependencies).tick(1)   // another process's change holds from the server's next tick (a second)
            #expect(try await laptop.get("/app").status == .seeOther)
            #expect(try await phone.get("/app").headers[.location] == "/app/signin")
            _ = try await phone.get("/app/signin")
            #expect(try await phone.post("/app/signin", ["login": "owner", "password": WebAppSignIn.password]).status == .unauthorized)
            try await phone.signIn("a brand new passphrase")
            #expect(try await phone.get("/app").status == .ok)
        }
    }

    /// Issue #27, 7: "Sign out everywhere" ends every other session and keeps this one.
    @Test func signingOutEverywhereKeepsOnlyThisSession() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            try await WebAppSignIn.setPassword(parts.store)
            var laptop = Browser(client: client), lost = Browser(client: client)
            try await lost.signIn(WebAppSignIn.password)
            try await laptop.signIn(WebAppSignIn.password)
            let feeds = try await laptop.get("/app")
            #expect(feeds.text.contains("action=\"/app/signout-everywhere\""))
            let out = try await laptop.post("/app/signout-everywhere", [:])
            #expect(out.status == .seeOther)
            let after = try await laptop.get("/app")
            #expect(after.status == .ok && after.text.contains("Every other session has ended"))
            #expect(try await lost.get("/app").status == .seeOther, "the lost phone is signed out")
        }
    }

    /// Issue #27, 10: a form's token was good in any session of that browser.
    /// It is bound to the session now: a token from before sign-in, or from an
    /// earlier session, is refused.
    @Test func aFormTokenIsBoundToItsSession() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            try await WebAppSignIn.setPassword(parts.store)
            var browser = Browser(client: client)
            _ = try await browser.get("/app/signin")
            let beforeSignIn = try #require(browser.csrf)
            try await browser.signIn(WebAppSignIn.password)
            let firstSession = try #require(browser.csrf)
            #expect(firstSession != beforeSignIn)
            let stale = try await browser.post("/app/feeds", ["name": "Old token", "timeZone": "UTC"], csrf: beforeSignIn)
            #expect(stale.status == .forbidden)
            _ = try await browser.post("/app/signout", [:])
            try await browser.signIn(WebAppSignIn.password)
            let replayed = try await browser.post("/app/feeds", ["name": "Replayed", "timeZone": "UTC"], csrf: firstSession)
            #expect(replayed.status == .forbidden)
            #expect(try await parts.store.feeds().isEmpty)
            #expect(try await browser.post("/app/feeds", ["name": "Fresh", "timeZone": "UTC"]).status == .seeOther)
        }
    }

    /// Issue #27, 10: Origin and Sec-Fetch-Site were not checked on POST.
    @Test func aPostThatABrowserSaysCameFromAnotherSiteIsRefused() async throws {
        let fixture = try ServerFixture()
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, client in
            browser.extraHeaders = [HTTPField.Name("Origin")!: "https://evil.example"]
            let foreign = try await browser.post("/app/feeds", ["name": "Forged", "timeZone": "UTC"])
            #expect(foreign.status == .forbidden && foreign.text.contains("another site"))
            browser.extraHeaders = [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]
            #expect(try await browser.post("/app/feeds", ["name": "Forged", "timeZone": "UTC"]).status == .forbidden)
            #expect(try await parts.store.feeds().isEmpty)
            browser.extraHeaders = [HTTPField.Name("Origin")!: "http://127.0.0.1:8080", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]
            #expect(try await browser.post("/app/feeds", ["name": "Mine", "timeZone": "UTC"]).status == .seeOther)
            // What Chromium sends from the app's pages (they set Referrer-Policy: no-referrer).
            browser.extraHeaders = [HTTPField.Name("Origin")!: "null", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]
            _ = try await browser.get("/app/feeds/new")
            #expect(try await browser.post("/app/feeds", ["name": "Mine too", "timeZone": "UTC"]).status == .seeOther)
            browser.extraHeaders = [HTTPField.Name("Origin")!: "null", HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]
            #expect(try await browser.post("/app/feeds", ["name": "Forged", "timeZone": "UTC"]).status == .forbidden)
        }
    }

    /// Issue #27, 4: with "Use my colours" unticked (the box sends nothing) the
    /// form was refused with 422 "colors: must be one or two #RRGGBB colours".
    /// Unticked means the palette's colours, and unticking clears colours set before.
    @Test func aCountdownWithoutItsOwnColoursSaves() async throws {
        let fixture = try ServerFixture()
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, client in
            _ = try await browser.get("/app/feeds/new")
            #expect(try await browser.post("/app/feeds", ["name": "Plain", "timeZone": "UTC"]).status == .seeOther)
            let unticked = WebAppSignIn.countdownFields(["title": "No colours"]).filter { $0.0 != "useColors" }
            let saved = try await browser.postMultipart("/app/feeds/plain/countdowns", unticked)
            #expect(saved.status == .seeOther, "\(saved.status): \(saved.text.prefix(300))")
            let plain = try #require(try await parts.store.countdowns(inFeed: "plain").first)
            #expect(plain.presentation.gradient.isEmpty && plain.presentation.textColor == nil)

            let coloured = try await browser.postMultipart("/app/feeds/plain/countdowns", WebAppSignIn.countdownFields(["title": "Coloured"]))
            #expect(coloured.status == .seeOther)
            let id = try #require(try await parts.store.countdowns(inFeed: "plain").first { $0.title == "Coloured" }?.id)
            _ = try await browser.get("/app/countdowns/\(id)/edit")
            let cleared = try await browser.postMultipart("/app/countdowns/\(id)/edit",
                                                          WebAppSignIn.countdownFields(["title": "Coloured"]).filter { $0.0 != "useColors" })
            #expect(cleared.status == .seeOther)
            let after = try #require(try await parts.store.countdowns(inFeed: "plain").first { $0.id == id })
            #expect(after.presentation.gradient.isEmpty && after.presentation.textColor == nil)
        }
    }

    /// The feed form carries the settings of issue 13: language, weekend and holidays.
    @Test func theFeedFormSetsLanguageWeekendAndHolidays() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("hol", calendar: ServerFixture.family)
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, client in
            _ = try await browser.get("/app/feeds/new")
            let fields = ["name": "Work", "timeZone": "Europe/Warsaw", "isPublic": "on", "mode": "daily", "days": "30"]
            let wrong = try await browser.post("/app/feeds", fields.merging(["weekend": "fri, caturday"]) { $1 })
            #expect(wrong.status == .unprocessableContent && wrong.text.contains("caturday"))
            let created = try await browser.post("/app/feeds", fields.merging(["language": "pl", "weekend": "fri, sat", "holidays": "hol"]) { $1 })
            #expect(created.status == .seeOther)
            let feed = try #require(try await parts.store.feed(slug: "work")?.feed)
            #expect(feed.language?.code == "pl" && feed.weekend == [.init(weekday: 5), .saturday] && feed.holidays == "hol")
            let edit = try await browser.get("/app/feeds/work/edit")
            #expect(edit.text.contains("<option value=\"pl\" selected>") && edit.text.contains("value=\"fri, sat\"") && edit.text.contains("value=\"hol\""))
            let cleared = try await browser.post("/app/feeds/work/edit", fields.merging(["language": "", "weekend": "sat, sun", "holidays": ""]) { $1 })
            #expect(cleared.status == .seeOther)
            let after = try #require(try await parts.store.feed(slug: "work")?.feed)
            #expect(after.language == nil && after.weekend == .standard && after.holidays == nil)
        }
    }

    /// A feed setting end to end (`countdown.title`, issue #36's example of a
    /// new setting): the web form sets it, the store keeps it, the countdown
    /// calendar titles its events with it, the admin API shows it, and the
    /// form refuses a pattern that does not name the countdown.
    @Test func theCountdownCalendarsTitlesAreTheOwnersWords() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timeZone: Europe/Berlin\ncountdown: {title: 'From the file: {title}'}")
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, client in
            #expect(try await parts.store.feed(slug: "family")?.feed.countdownTitle == "From the file: {title}", "a feed file sets it")
            _ = try await browser.get("/app/feeds/family/edit")
            let fields = ["name": "Family", "timeZone": "Europe/Berlin", "isPublic": "on", "mode": "daily", "days": "30"]
            let wrong = try await browser.post("/app/feeds/family/edit", fields.merging(["countdownTitle": "{amount} left"]) { $1 })
            #expect(wrong.status == .unprocessableContent && wrong.text.contains("must contain {title}"))
            let saved = try await browser.post("/app/feeds/family/edit", fields.merging(["countdownTitle": "⏳ {title}: {amount}"]) { $1 })
            #expect(saved.status == .seeOther)
            #expect(try await parts.store.feed(slug: "family")?.feed.countdownTitle == "⏳ {title}: {amount}")
            let edit = try await browser.get("/app/feeds/family/edit")
            #expect(edit.text.contains("value=\"⏳ {title}: {amount}\""), "the form shows it again")
            let calendar = try await client.text("/feeds/family/countdown.ics").1
            #expect(calendar.contains("SUMMARY:⏳ "), "\(calendar.prefix(600))")
            #expect(!calendar.contains("SUMMARY:From the file"))
            let api = try await client.text("/api/feeds/family", headers: fixture.admin).1
            #expect(api.contains(#""title":"⏳ {title}: {amount}""#), "\(api)")
        }
    }

    @Test func deletingOffersUndoThatBringsBackTheSameUID() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timeZone: Europe/Berlin")
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, client in
            let trip = try #require(try await parts.store.countdowns(inFeed: "family").first { $0.uid == "trip@server.test" })
            _ = try await browser.get("/app/feeds/family")
            let deleted = try await browser.post("/app/countdowns/\(trip.id!)/delete", [:])
            #expect(deleted.status == .seeOther)
            let page = try await browser.get("/app/feeds/family")
            #expect(page.text.contains("Deleted “Trip”") && page.text.contains("action=\"/app/undo\""))
            #expect(try await browser.get("/feeds/family.ics").text.contains("UID:trip@server.test") == false)
            #expect(try await browser.post("/app/undo", [:]).status == .seeOther)
            let back = try await browser.get("/feeds/family.ics").text
            #expect(back.contains("UID:trip@server.test") && back.contains("SEQUENCE:1"))
        }
    }

    @Test func tickingOffATaskWritesItsCompletionAndTheCountsFollow() async throws {
        let fixture = try ServerFixture()   // Sunday 2026-11-22 09:00 UTC
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, client in
            _ = try await browser.post("/app/feeds", ["name": "Chores", "timeZone": "UTC", "isPublic": "on"])
            for (title, date) in [("Late", "2026-11-20"), ("Today", "2026-11-22"), ("Sunday week", "2026-11-29"), ("Later", "2026-12-15")] {
                let added = try await browser.postMultipart("/app/feeds/chores/countdowns",
                                                            WebAppSignIn.countdownFields(["kind": "task", "title": title, "date": date, "time": "", "priority": "1"]))
                #expect(added.status == .seeOther)
            }
            let counts = try await browser.get("/feeds/chores.json").text
            #expect(counts.contains("\"tasks\":{\"dueThisWeek\":1,\"dueToday\":1,\"overdue\":1}"), "Sunday 22 Nov: the week ends today")
            let late = try #require(try await parts.store.countdowns(inFeed: "chores").first { $0.title == "Late" })
            let tasks = try await browser.get("/app/tasks")
            #expect(tasks.text.contains("1 overdue"))
            #expect(try await browser.post("/app/countdowns/\(late.id!)/complete?back=tasks", [:]).headers[.location] == "/app/tasks")
            let ics = try await browser.get("/feeds/chores.ics").text
            let todo = try #require(ics.components(separatedBy: "BEGIN:VTODO").first { $0.contains("SUMMARY:Late\r\n") })
            #expect(todo.contains("STATUS:COMPLETED") && todo.contains("PERCENT-COMPLETE:100") && todo.contains("COMPLETED:20261122T090000Z"))
            #expect(try await browser.get("/feeds/chores.json").text.contains("\"overdue\":0"))
        }
    }

    @Test func aStrictImportWithABrokenLineShowsTheLineAndChangesNothing() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timeZone: Europe/Berlin")
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, client in
            _ = try await browser.get("/app/feeds/family/import")
            let broken = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:x@t\r\nDTSTAMP:20260101T000000Z\r\n"
                + "SUMMARY:Broken\r\nDTSTART:2026x101T100000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let before = try await parts.store.countdowns(inFeed: "family").count
            let refused = try await browser.postMultipart("/app/feeds/family/import", [("strict", .text("on")),
                                                                                         ("file", .file("broken.ics", Data(broken.utf8)))])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("line 8") && refused.text.contains("DTSTART") && refused.text.contains("Nothing was imported"))
            #expect(try await parts.store.countdowns(inFeed: "family").count == before)
            let lenient = try await browser.postMultipart("/app/feeds/family/import", [("file", .file("broken.ics", Data(ServerFixture.family.utf8)))])
            #expect(lenient.status == .ok && lenient.text.contains("0 added, 0 updated, 3 unchanged"))
        }
    }

    @Test func anAddressCanBecomeASourceTheFeedKeepsFetching() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timeZone: Europe/Berlin\npublic: false")
        let served = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:school@t\r\nDTSTAMP:20260101T000000Z\r\n\
            SUMMARY:School play\r\nDTSTART;VALUE=DATE:20261212\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        try await SourceServer.serving { router in
            router.get("school.ics") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: served))) }
        }.test(.live) { source in
            let url = "http://127.0.0.1:\(try #require(source.port))/school.ics"
            try await fixture.withServer(adjust: { _ in }) { client, parts in
                try await WebAppSignIn.setPassword(parts.store)
                var browser = Browser(client: client)
                try await browser.signIn(WebAppSignIn.password)
                _ = try await browser.get("/app/feeds/family/import")
                let imported = try await browser.postMultipart("/app/feeds/family/import", [("url", .text(url)), ("keep", .text("on")),
                                                                                            ("file", .file("", Data()))])
                #expect(imported.status == .ok && imported.text.contains("1 added") && imported.text.contains("every hour"))
                #expect(try await parts.store.subscriptions().map(\.location) == [url])
                let page = try await browser.get("/app/feeds/family")
                #expect(page.text.contains(url) && page.text.contains("fetched every hour") && page.text.contains("Fetch now"))
                #expect(try await browser.post("/app/feeds/family/refresh", [:]).status == .seeOther)
                // The export of a private feed, as a download.
                let export = try await browser.get("/app/feeds/family/export")
                #expect(export.status == .ok && export.headers[.contentDisposition]?.contains("attachment") == true)
                #expect(export.text.contains("SUMMARY:School play") && export.text.contains("SUMMARY:Trip"))
                _ = try await browser.get("/app/feeds/family")
                #expect(try await browser.post("/app/feeds/family/unsubscribe", ["location": url]).status == .seeOther)
                #expect(try await parts.store.subscriptions().isEmpty)
            }
        }
    }

    @Test func aTokenLinkIsShownOnceWithAQRCodeAndOpensThePrivateFeed() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timeZone: Europe/Berlin\npublic: false")
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, client in
            _ = try await browser.get("/app/feeds/family")
            let made = try await browser.post("/app/feeds/family/tokens", ["label": "Anna’s phone"])
            #expect(made.status == .created && made.text.contains("shown only this once") && made.text.contains("<svg"))
            let path = try #require(made.text.firstMatch(of: /http:\/\/127\.0\.0\.1:8080(\/t\/[A-Za-z0-9_-]+\/feeds\/family)\.ics/)).1
            #expect(try await browser.get(path + ".ics").text.contains("SUMMARY:Trip"))
            #expect(try await browser.get("/feeds/family.ics").status == .notFound)
            let again = try await browser.get("/app/feeds/family")
            #expect(!again.text.contains(String(path)) && again.text.contains("Anna’s phone"))
        }
    }

    @Test func timelineAndStatisticsLookAcrossFeeds() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timeZone: Europe/Berlin")
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, parts, client in
            let timeline = try await browser.get("/app/timeline?weeks=2")
            #expect(timeline.status == .ok)
            #expect(timeline.text.contains("aria-current=\"date\""), "today is marked")
            #expect(timeline.text.contains("Standup") && timeline.text.contains("09:30") && timeline.text.contains(">alarm<"))
            #expect(timeline.text.contains("Trip"))
            #expect(!timeline.text.contains("Wed, 25 Nov 2026</time></h2>\n<ul>\n<li class=\"entry\" style=\"--color:#8E8E93\">\n<span class=\"when\">09:30"),
                    "the EXDATE'd standup is not listed")
            let stats = try await browser.get("/app/stats?period=month&at=2026-11-10")
            #expect(stats.status == .ok && stats.text.contains("November 2026") && stats.text.contains("<svg"))
            #expect(stats.text.contains("period=month&amp;at=2026-10-01") && stats.text.contains("period=month&amp;at=2026-12-01"))
            #expect(try await browser.get("/app/stats?period=fortnight").status == .badRequest)
            let gone = try await browser.get("/app/feeds/no-such-feed")
            #expect(gone.status == .notFound && gone.text.contains("Not found") && gone.text.contains("There is no feed “no-such-feed”."))
        }
    }

    /// One event, for tests that need a feed and not what is in it.
    static let concert = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:concert@example.com\r\n"
        + "DTSTAMP:20260101T000000Z\r\nDTSTART;VALUE=DATE:20261210\r\nSUMMARY:Concert\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
}
