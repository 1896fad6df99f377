import Foundation
import ICalendar
import Testing
@testable import Countdowns

/// The feed setting `countdown.title`: the countdown calendar's event titles
/// as the feed's owner words them, checked by the one rule every way of
/// setting it goes through (a feed file, the admin API, the web form, `--set`).
struct CountdownTitleTests {
    static let zone = Zone.named("Europe/Berlin")!

    static func titles(_ feed: Feed) -> [String] {
        var countdown = Countdown(uid: "exam@tests", title: "Maths final", target: .date(CivilDate(year: 2026, month: 12, day: 1)))
        countdown.lastModified = Date(timeIntervalSince1970: 0)
        let series = CountdownSeries(countdown, preparedAt: Make.instant("20261123T100000", in: "Europe/Berlin"), floatingZone: zone)
        return CountdownCalendar(feed: feed, today: CivilDate(parsing: "20261123")!, zone: zone, language: feed.language ?? .english).calendar(for: [series]).calendar
            .events.compactMap { $0.component.first("SUMMARY")?.value }
    }

    @Test func theOwnersWordsTitleEveryDay() throws {
        #expect(Self.titles(Feed(slug: "exams")).first == "Maths final — 8 days", "the default")
        var document = FeedSettingsDocument()
        document.countdown = .init(title: "📐 {title} in {amount}")
        var feed = Feed(slug: "exams")
        try document.apply(to: &feed)
        let titles = Self.titles(feed)
        #expect(titles.first == "📐 Maths final in 8 days" && titles.last == "📐 Maths final in Today")
        feed.language = Language.named("de")
        #expect(Self.titles(feed).first == "📐 Maths final in 8 Tage", "the amount in the feed's language")

        // Shown, stored and read back as any other setting.
        #expect(FeedSettingsDocument(feed).countdown?.title == "📐 {title} in {amount}")
        #expect(FeedSettingsColumnRoundTrip.check(feed))
        document.countdown = .init(title: "")
        try document.apply(to: &feed)
        #expect(feed.countdownTitle == nil, "empty is the default again")
    }

    @Test func aTitleMustNameTheCountdownAndKnowItsPlaceholders() {
        for (pattern, says) in [("{amount} left", "must contain {title}"), ("{title} {days}", "'{days}' is not a placeholder"),
                                (String(repeating: "x", count: 200) + "{title}", "at most 200 characters")] {
            var document = FeedSettingsDocument()
            document.countdown = .init(title: pattern)
            var feed = Feed(slug: "exams")
            #expect { try document.apply(to: &feed) } throws: { ($0 as? Feed.InvalidSetting)?.message.contains(says) == true }
            #expect(feed.countdownTitle == nil, "a refused setting changes nothing")
        }
        var document = FeedSettingsDocument()
        document.countdown = .init(title: "{title} {amount} {title")
        var feed = Feed(slug: "exams")
        #expect(throws: Feed.InvalidSetting.self, "an unclosed brace is no placeholder") { try document.apply(to: &feed) }
    }
}

/// A feed's settings survive the trip through JSON that the stores keep.
enum FeedSettingsColumnRoundTrip {
    static func check(_ feed: Feed) -> Bool {
        guard let data = try? JSONEncoder().encode(FeedSettingsDocument(stored: feed)),
              let document = try? JSONDecoder().decode(FeedSettingsDocument.self, from: data) else { return false }
        var read = Feed(slug: feed.slug)
        document.applyStored(to: &read)
        return read == feed
    }
}
