import Countdowns
@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Pages
import ServerTestSupport
import Subscriptions
import Testing
import WebApp

/// The web app in the 13 languages: the tables are whole and safe to splice
/// into templates, every page compiles in every language, and a live server
/// answers in the browser's language until the switch remembers another.
/// `make browser` walks the same app in Chromium in German, Arabic and
/// Japanese, with axe on every page.
@Suite struct AppLanguageTests {
    static func table(_ code: String) throws -> [String: String] {
        let folder = try #require(WebPages.resourceFolder("Words"))
        return try JSONDecoder().decode([String: String].self, from: try Data(contentsOf: URL(fileURLWithPath: folder + "/\(code).json")))
    }

    static func values(_ text: String) -> [String] {
        text.matches(of: /\{\{[^}]*\}\}/).map { String($0.output) }.sorted()
    }

    @Test(arguments: Language.all.filter { $0 != .english }.map(\.code))
    func everyTableHasEveryTextWithTheSameValuesAndNoMarkup(code: String) throws {
        let english = try Self.table("en")
        let table = try Self.table(code)
        #expect(Set(table.keys) == Set(english.keys), "missing: \(Set(english.keys).subtracting(table.keys).sorted()), extra: \(Set(table.keys).subtracting(english.keys).sorted())")
        for (key, source) in english {
            let text = try #require(table[key])
            #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(code) \(key) is empty")
            #expect(Self.values(text) == Self.values(source), "\(code) \(key) names other values: \(text)")
            #expect(text.contains("{n}") == source.contains("{n}"), "\(code) \(key) must keep {n}, which the user types")
            // Texts are spliced into HTML, attributes included: a straight quote or a tag would break the page.
            let bare = text.replacingOccurrences(of: "<code>", with: "").replacingOccurrences(of: "</code>", with: "")
            #expect(!text.contains("\"") && !bare.contains("<") && !bare.contains(">") && !text.contains("{{{"), "\(code) \(key): \(text)")
            #expect(text.components(separatedBy: "<code>").count == source.components(separatedBy: "<code>").count, "\(code) \(key) loses its code marks")
        }
    }

    @Test func everyTemplateCompilesInEveryLanguage() throws {
        try WebPages.load().compileAll()
    }

    /// Every key the Swift code asks for, literally or as a family ("unit." + a
    /// display unit), is in the English table, so no page shows a bare key.
    @Test func everyTextTheCodeAsksForExists() throws {
        let english = try Self.table("en")
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/WebApp").standardized
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20)
        let families = "focus|rule|setting|invalid|outcome|layout|nav|common|count|error|signin|setup|join|reset|signup|role|me|factor|spaces|space|people|feeds|feed|visibility|notice|feedDelete|feedForm|flash|countdown|kind|repeat|every|ordinal|direction|unit|alarm|field|import|rules|timeline|tasks|group|stats|period"
        let literal = try Regex("\"((?:\(families))\\.[A-Za-z0-9]+)\"")
        var asked: Set<String> = []
        for file in files {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in source.matches(of: literal) { asked.insert(String(source[match.range].dropFirst().dropLast())) }
        }
        #expect(asked.count > 100)
        asked.formUnion(DisplayUnit.allCases.map { "unit.\($0.rawValue)" })
        asked.formUnion(RepeatChoice.allCases.map(\.wordKey))
        asked.formUnion(CountdownDraft.Field.allCases.map { "field.\($0.rawValue)" })
        asked.formUnion(CategoryStatistics.Period.allCases.map { "period.\($0.rawValue)" })
        asked.formUnion(Visibility.allCases.map { "visibility.\($0.rawValue)" })
        asked.formUnion(NoticeTarget.Event.allCases.map { "notice.\($0.rawValue)" })
        asked.formUnion(["overdue", "today", "thisWeek", "later"].map { "group.\($0)" })
        asked.formUnion(["kept", "changed", "dropped", "duplicate"].map { "rules.\($0)" })
        asked.formUnion(["delivered", "retrying", "gaveUp", "dropped"].map { "outcome.\($0)" })
        asked.formUnion(["days", "weeks", "months", "years"].map { "every.\($0)" })
        asked.formUnion(["Down", "Up", "Pomodoro"].map { "focus.mode\($0)" })
        asked.formUnion(["none", "daily", "weekly", "monthly", "yearly", "every", "nth", "lastday", "chinese", "hebrew", "islamic", "custom"].map { "repeat.\($0)" })
        let missing = asked.subtracting(english.keys).sorted()
        #expect(missing.isEmpty, "asked for but not in en.json: \(missing)")
    }

    @Test func theAppSpeaksTheBrowsersLanguageUntilTheSwitchRemembersAnother() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("family", calendar: ServerFixture.family, yaml: "timeZone: Europe/Berlin")
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            try await WebAppSignIn.setPassword(parts.store)
            var browser = Browser(client: client)

            let english = try await browser.get("/app/signin")
            #expect(english.text.contains("<html lang=\"en\" dir=\"ltr\">") && english.text.contains("Sign in to tminus"))

            browser.extraHeaders[.acceptLanguage] = "de-CH, en;q=0.5"
            let german = try await browser.get("/app/signin")
            #expect(german.text.contains("<html lang=\"de\" dir=\"ltr\">") && german.text.contains("Bei tminus anmelden"))
            #expect(german.text.contains("<option value=\"de\" lang=\"de\" selected>Deutsch</option>"), "the switch shows the language in use")
            let wrong = try await browser.post("/app/signin", ["login": "owner", "password": "not the password"])
            #expect(wrong.status == .unauthorized && wrong.text.contains("Anmeldename oder Passwort stimmt nicht."))
            try await browser.signIn(WebAppSignIn.password)
            let feeds = try await browser.get("/app")
            #expect(feeds.text.contains(">Zeitleiste</a>") && feeds.text.contains("Neuer Feed"))
            // Days and months are named by the locale.
            let form = try await browser.get("/app/feeds/family/countdowns/new")
            #expect(form.text.contains(">Freitag</option>") && form.text.contains("Neuer Countdown"))
            // The model's reasons, typed, in the page's language; the value as typed.
            let refused = try await browser.postMultipart("/app/feeds/family/countdowns", WebAppSignIn.countdownFields(["timeZone": "Mars/Olympus"]))
            #expect(refused.status == .unprocessableContent && refused.text.contains("Zeitzone: Mars/Olympus ist keine bekannte Zeitzone"))
            let taken = try await browser.post("/app/feeds", ["name": "Family", "slug": "family", "timeZone": "Europe/Berlin"])
            #expect(taken.status == .unprocessableContent && taken.text.contains("Einen Feed mit dem Adressnamen family gibt es schon."))
            let zone = try await browser.post("/app/feeds", ["name": "Mars", "timeZone": "Mars/Olympus"])
            #expect(zone.status == .unprocessableContent && zone.text.contains("Zeitzone Mars/Olympus ist unbekannt"))
            let stats = try await browser.get("/app/stats?period=month&at=2026-11-22")
            #expect(stats.text.contains("<h2>November 2026</h2>") && stats.text.contains("Vorkommen pro Kategorie"))

            // The switch wins over Accept-Language, for a year, and goes back to the page it came from.
            let switched = try await browser.post("/app/language", ["language": "ar", "back": "/app/timeline?weeks=2"])
            #expect(switched.status == .seeOther && switched.headers[.location] == "/app/timeline?weeks=2")
            let cookie = try #require(switched.headers[values: .setCookie].first { $0.hasPrefix("tminus_lang=ar") })
            #expect(cookie.contains("Max-Age=31536000") && cookie.contains("Path=/app") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
            let arabic = try await browser.get("/app/timeline?weeks=2")
            #expect(arabic.text.contains("<html lang=\"ar\" dir=\"rtl\">") && arabic.text.contains(">الخط الزمني</a>"))
            let made = try await browser.post("/app/feeds", ["name": "Exams", "timeZone": "Europe/Berlin"])
            #expect(made.status == .seeOther)
            #expect(try await browser.get("/app/feeds/exams").text.contains("أُنشئت الخلاصة «Exams»."), "flash messages too")
            let missing = try await browser.get("/app/feeds/no-such-feed")
            #expect(missing.status == .notFound && missing.text.contains("غير موجود") && missing.text.contains("لا توجد خلاصة باسم «no-such-feed»."))

            // Japanese, and back to English.
            _ = try await browser.post("/app/language", ["language": "ja", "back": "/app"])
            let japanese = try await browser.get("/app/tasks")
            #expect(japanese.text.contains("<html lang=\"ja\" dir=\"ltr\">") && japanese.text.contains("<h1>タスク</h1>"))
            _ = try await browser.post("/app/language", ["language": "en", "back": "/app"])
            #expect(try await browser.get("/app").text.contains("New feed"))
        }
    }

    @Test func theSwitchGoesBackOnlyWithinTheAppAndRefusesAnUnknownLanguage() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            try await WebAppSignIn.setPassword(parts.store)
            var browser = Browser(client: client)
            _ = try await browser.get("/app/signin")
            for back in ["//evil.example/app", "https://evil.example/", "/feeds/x", "/app/../etc", "/app\\@evil"] {
                let page = try await browser.post("/app/language", ["language": "fr", "back": back])
                #expect(page.status == .seeOther && page.headers[.location] == "/app", "\(back)")
            }
            let unknown = try await browser.post("/app/language", ["language": "tlh", "back": "/app"])
            #expect(unknown.status == .badRequest && unknown.text.contains("Choisissez l’une de ces langues"))
            #expect(AppLanguageSwitch.safeBack("/app/feeds/family?x=1") == "/app/feeds/family?x=1")
        }
    }
}
