@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// The user's language on every output (issue 13, part 1): `?lang=`, the
/// feed's `language:`, and `Accept-Language` for pages and cards.
@Suite struct LanguageServingTests {
    /// The fixture's clock is 2026-11-22: the exam is 22 days away, Christmas
    /// Eve was 3 days ago in the other fixture.
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:exam@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20261214\r
        SUMMARY:Exam\r
        X-TMINUS-UNIT:days\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:party@example.com\r
        DTSTAMP:20260101T000000Z\r
        DTSTART;VALUE=DATE:20261119\r
        SUMMARY:Party\r
        X-TMINUS-UNIT:days\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    static func texts(_ client: any TestClientProtocol, _ path: String) async throws -> [String: String] {
        let body = try await client.text(path).1
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let rows = try #require(json["countdowns"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: rows.compactMap { row in (row["title"] as? String).map { ($0, row["text"] as? String ?? "") } })
    }

    @Test func jsonTextFollowsLangAndTheFeedsLanguage() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("plain", calendar: Self.calendar)
        try fixture.feed("polish", calendar: Self.calendar, yaml: "language: pl")
        try await fixture.withServer { client in
            #expect(try await Self.texts(client, "/feeds/plain.json") == ["Exam": "22 days", "Party": "3 days ago"])
            #expect(try await Self.texts(client, "/feeds/plain.json?lang=ru") == ["Exam": "22 дня", "Party": "3 дня назад"])
            #expect(try await Self.texts(client, "/feeds/polish.json") == ["Exam": "22 dni", "Party": "3 dni temu"])
            #expect(try await Self.texts(client, "/feeds/polish.json?lang=ar") == ["Exam": "22 يومًا", "Party": "منذ 3 أيام"])
            let (response, body) = try await client.text("/feeds/plain.json?lang=klingon")
            #expect(response.status == .badRequest && body.contains("lang must be one of en, de, fr"))
            let accepted = try await client.text("/feeds/plain.json", headers: [.acceptLanguage: "de"]).1
            #expect(accepted.contains("\"22 days\""), "JSON ignores Accept-Language")
        }
    }

    @Test func pagesFollowAcceptLanguageAndArabicReadsRightToLeft() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("plain", calendar: Self.calendar)
        try await fixture.withServer { client in
            let (response, german) = try await client.text("/feeds/plain", headers: [.acceptLanguage: "de-CH, de;q=0.9, en;q=0.5"])
            #expect(german.contains("<html lang=\"de\" dir=\"ltr\">"))
            #expect(german.contains("Abonnieren (webcal)") && german.contains(">Tage<") && german.contains("Mo. 14. Dez. 2026"), "\(german)")
            #expect(response.headers[.vary]?.contains("Accept-Language") == true)
            let arabic = try await client.text("/feeds/plain?lang=ar", headers: [.acceptLanguage: "de"]).1
            #expect(arabic.contains("<html lang=\"ar\" dir=\"rtl\">") && arabic.contains("اشترك"), "?lang= wins over Accept-Language")
            let english = try await client.text("/feeds/plain").1
            #expect(english.contains("<html lang=\"en\" dir=\"ltr\">") && english.contains("Subscribe (webcal)") && english.contains(">Days<"))
            let card = try await client.text("/feeds/plain/1.svg?lang=ja").1
            #expect(card.contains("日"), "\(card)")
        }
    }

    /// The public index (`/`) was English whatever the browser asked for. It
    /// follows `?lang=` and `Accept-Language` like the pages, counts each feed's
    /// countdowns with the language's plural rules, and is rendered once per
    /// language and change.
    @Test func theIndexSpeaksTheViewersLanguageOnceARenderPerLanguage() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("plain", calendar: Self.calendar)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let (response, russian) = try await client.text("/", headers: [.acceptLanguage: "ru-RU, en;q=0.5"])
            #expect(russian.contains("<html lang=\"ru\" dir=\"ltr\">") && russian.contains("2 отсчёта") && russian.contains("Отсчёты из календарей"))
            #expect(response.headers[.vary]?.contains("Accept-Language") == true)
            let arabic = try await client.text("/?lang=ar", headers: [.acceptLanguage: "ru"]).1
            #expect(arabic.contains("<html lang=\"ar\" dir=\"rtl\">") && arabic.contains("عدّان تنازليان"), "?lang= wins")
            let english = try await client.text("/").1
            #expect(english.contains("<html lang=\"en\" dir=\"ltr\">") && english.contains("2 countdowns") && english.contains("Subscribe (webcal)"))
            #expect(parts.catalog.indexRenderCount == 3)
            _ = try await client.text("/", headers: [.acceptLanguage: "ru"])
            #expect(parts.catalog.indexRenderCount == 3, "each language is rendered once per change")
            #expect(try await client.text("/?lang=xx").0.status == .badRequest)
        }
    }

    /// The SVG card's progress ring says how much time has passed in the card's language (it was English in every language).
    @Test func theCardsProgressIsSaidInItsLanguage() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("term", calendar: """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//EN\r
            BEGIN:VEVENT\r
            UID:term@example.com\r
            DTSTAMP:20260101T000000Z\r
            DTSTART;VALUE=DATE:20261222\r
            X-TMINUS-FROM;VALUE=DATE:20260901\r
            SUMMARY:Holidays\r
            END:VEVENT\r
            END:VCALENDAR\r

            """)
        try await fixture.withServer { client in
            let german = try await client.text("/feeds/term/1.svg?lang=de").1
            #expect(german.contains("% der Zeit sind vergangen</title>"), "\(german)")
            let english = try await client.text("/feeds/term/1.svg").1
            #expect(english.contains("% of the time has passed</title>"))
        }
    }

    @Test func countdownCalendarTitlesAreInTheFeedsLanguage() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("polish", calendar: Self.calendar, yaml: "language: pl")
        try await fixture.withServer { client in
            let polish = try await client.text("/feeds/polish/countdown.ics").1.replacingOccurrences(of: "\r\n ", with: "")
            #expect(polish.contains("X-WR-CALNAME:Polish — odliczanie"), "the calendar's own name and description too")
            #expect(polish.contains("X-WR-CALDESC:Jedno całodniowe wydarzenie dziennie do każdego odliczania z Polish"))
            let inGerman = try await client.text("/feeds/polish/countdown.ics?lang=de").1.replacingOccurrences(of: "\r\n ", with: "")
            #expect(inGerman.contains("X-WR-CALNAME:Polish — Countdown"))
            #expect(polish.contains("SUMMARY:Exam — 22 dni") && polish.contains("SUMMARY:Exam — 21 dni") && polish.contains("SUMMARY:Exam — 1 dzień"))
            let german = try await client.text("/feeds/polish/countdown.ics?lang=de").1.replacingOccurrences(of: "\r\n ", with: "")
            #expect(german.contains("SUMMARY:Exam — 22 Tage") && german.contains("SUMMARY:Exam — Heute"))
        }
    }

    @Test func anUnknownFeedLanguageIsRefusedWithTheList() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("plain", calendar: Self.calendar)
        try await fixture.withServer { client in
            let response = try await client.execute(uri: "/api/feeds/plain", method: .patch, headers: fixture.admin,
                                                    body: ByteBuffer(string: #"{"slug":"plain","language":"tlh"}"#))
            let body = String(buffer: response.body)
            #expect((response.status == .badRequest || response.status == .unprocessableContent) && body.contains("language: 'tlh' is not a language tminus speaks"), "\(body)")
            let saved = try await client.execute(uri: "/api/feeds/plain", method: .patch, headers: fixture.admin,
                                                 body: ByteBuffer(string: #"{"slug":"plain","language":"hu"}"#))
            #expect(saved.status == .ok && String(buffer: saved.body).contains(#""language":"hu""#))
            #expect(try await Self.texts(client, "/feeds/plain.json") == ["Exam": "22 nap", "Party": "3 nap ezelőtt"])
        }
    }
}
