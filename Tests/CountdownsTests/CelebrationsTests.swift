import Foundation
import ICalendar
import Testing
@testable import Countdowns

/// Days people celebrate that the countdown calendar adds: half-birthdays and
/// round day counts of count-ups.
struct CelebrationsTests {
    static let zone = Zone.named("Europe/Budapest")!
    static let today = CivilDate(parsing: "20261123")!

    static func series(_ countdown: Countdown) -> CountdownSeries {
        CountdownSeries(countdown, preparedAt: Make.instant("20261123T090000", in: "Europe/Budapest"), floatingZone: zone)
    }

    static func anna() -> Countdown {
        var anna = Make.allDay("19900510", repeat: .yearly, title: "Anna turns {n}")
        anna.uid = "anna"
        return anna
    }

    static func quit() -> Countdown {
        var quit = Make.allDay("20240301", title: "No smoking")
        quit.uid = "quit"
        quit.direction = .up
        return quit
    }

    @Test func aHalfBirthdayIsSixMonthsBeforeTheBirthdayWithHalfAnAge() {
        let days = Celebrations.default.days(of: Self.series(Self.anna()), from: Self.today, through: Self.today.adding(days: 400), zone: Self.zone)
        #expect(days.map(\.date.iso) == ["2027-11-10"] && days.map(\.title) == ["Anna turns 37½"])
    }

    @Test func aHalfBirthdayFromTheLastDayOfAMonthClamps() {
        var leo = Make.allDay("20000831", repeat: .yearly, title: "Leo turns {n}")
        leo.uid = "leo"
        let days = Celebrations.default.days(of: Self.series(leo), from: Self.today, through: Self.today.adding(days: 200), zone: Self.zone)
        #expect(days.map(\.date.iso) == ["2027-02-28"] && days.map(\.title) == ["Leo turns 26½"])
    }

    @Test func titlesWithoutAnAgeGetNoHalfBirthday() {
        var christmas = Make.allDay("20001225", repeat: .yearly, title: "Christmas")
        christmas.uid = "xmas"
        #expect(Celebrations.default.days(of: Self.series(christmas), from: Self.today, through: Self.today.adding(days: 400), zone: Self.zone).isEmpty)
    }

    @Test func countUpsCelebrateRoundDayCounts() {
        // 1 March 2024 + 1,000 days = 26 November 2026.
        let days = Celebrations.default.days(of: Self.series(Self.quit()), from: Self.today, through: Self.today.adding(days: 400), zone: Self.zone)
        #expect(days.map(\.date.iso) == ["2026-11-26"] && days.map(\.title) == ["No smoking — 1,000 days"])
        let custom = Celebrations(halfBirthdays: false, dayCounts: [1_000, 1_001, 999])
        #expect(custom.days(of: Self.series(Self.quit()), from: Self.today, through: Self.today.adding(days: 10), zone: Self.zone).map(\.date.iso)
                    == ["2026-11-25", "2026-11-26", "2026-11-27"])
    }

    @Test func theCountdownCalendarCarriesThemWithStableUIDs() {
        var feed = Feed(slug: "family", timeZone: "Europe/Budapest", countdownMode: .daily(days: 30))
        let calendar = CountdownCalendar(feed: feed, today: Self.today, zone: Self.zone).calendar(for: [Self.series(Self.anna()), Self.series(Self.quit())])
        let celebrated = calendar.calendar.events.filter { $0.component.first("UID")?.value.hasSuffix("@celebrate.tminus") == true }
        #expect(celebrated.compactMap { $0.component.first("SUMMARY")?.value }.sorted() == ["Anna turns 37½", "No smoking — 1\\,000 days"])
        #expect(celebrated.compactMap { $0.component.first("UID")?.value }.sorted() == ["anna/half-20280510@celebrate.tminus", "quit/days-1000@celebrate.tminus"])
        feed.celebrations = .none
        let plain = CountdownCalendar(feed: feed, today: Self.today, zone: Self.zone).calendar(for: [Self.series(Self.anna()), Self.series(Self.quit())])
        #expect(!plain.calendar.events.contains { $0.component.first("UID")?.value.hasSuffix("@celebrate.tminus") == true })
    }

    @Test func feedSettingsCarryThem() throws {
        var feed = Feed(slug: "family")
        var document = FeedSettingsDocument()
        document.celebrate = .init(halfBirthdays: false, days: [1_000, 100])
        try document.apply(to: &feed)
        #expect(feed.celebrations == Celebrations(halfBirthdays: false, dayCounts: [100, 1_000]))
        document.celebrate = .init(days: [0])
        #expect(throws: Feed.InvalidSetting.self) { try document.apply(to: &feed) }
    }
}
