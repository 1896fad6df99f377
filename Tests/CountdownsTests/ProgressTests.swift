import Foundation
import ICalendar
import Testing
@testable import Countdowns

/// `progress`: how much of a countdown's span has passed, 0 to 1. The span
/// runs from `countsFrom` (or a repeat's previous occurrence) to the occurrence
/// counted to, in the viewer's calendar days for all-day targets.
struct ProgressTests {
    static func term() -> Countdown {
        var countdown = Make.allDay("20261218", title: "End of term")
        countdown.countsFrom = CivilDate(parsing: "20260901")!
        return countdown
    }

    /// 1 September to 18 December is 108 days; on 23 November 83 have passed.
    @Test func aTermIsSeventySevenPercentThroughOnNovember23() {
        let result = Make.calculator("20261123T100000", "Europe/Berlin").remaining(for: Self.term())
        #expect(result.progress == 0.769 && result.days == 25)
    }

    @Test func itIsZeroOnTheFirstDayAndOneOnTheLast() {
        #expect(Make.calculator("20260901T080000", "Europe/Berlin").remaining(for: Self.term()).progress == 0)
        #expect(Make.calculator("20260815T080000", "Europe/Berlin").remaining(for: Self.term()).progress == 0, "before the span: 0, not negative")
        #expect(Make.calculator("20261218T080000", "Europe/Berlin").remaining(for: Self.term()).progress == 1, "today: done")
        #expect(Make.calculator("20270101T080000", "Europe/Berlin").remaining(for: Self.term()).progress == 1, "past: done")
    }

    /// Days are the viewer's: at 23:30 on 22 November in Honolulu it is the
    /// 23rd in UTC, but only 82 of the 108 days have passed there.
    @Test func daysAreTheViewers() {
        let result = Make.calculator("20261122T233000", "Pacific/Honolulu").remaining(for: Self.term())
        #expect(result.progress == (82.0 / 108 * 1000).rounded() / 1000)
    }

    @Test func aRepeatMeasuresFromItsPreviousOccurrence() {
        // Monthly rent on the 1st: on 11 November, 10 of the 30 days to 1 December have passed.
        let rent = Make.allDay("20260101", repeat: .monthly, title: "Rent")
        #expect(Make.calculator("20261111T120000", "UTC").remaining(for: rent).progress == 0.333)
        // A yearly birthday: 22 Nov 2026 lies 330 of the 365 days from 27 Dec 2025 to 27 Dec 2026.
        let birthday = Make.allDay("19900227", repeat: .yearly, title: "Anna")
        #expect(Make.calculator("20261122T120000", "UTC").remaining(for: birthday).progress == (268.0 / 365 * 1000).rounded() / 1000)
    }

    @Test func aTimedRepeatMeasuresInstants() {
        var standup = Make.zoned("20261102T093000", "Europe/Berlin", title: "Standup")
        standup.repeatRule = .weekly
        // A week is 168 hours; on Thursday 5 Nov at 09:30 Berlin, 72 of them have passed.
        let result = Make.calculator("20261105T093000", "Europe/Berlin").remaining(for: standup)
        #expect(result.progress == (72.0 / 168 * 1000).rounded() / 1000)
    }

    @Test func nothingToMeasureGivesNoProgress() {
        #expect(Make.calculator("20261123T100000", "UTC").remaining(for: Make.allDay("20261218")).progress == nil, "a one-off without a start")
        var since = Self.term()
        since.direction = .up
        #expect(Make.calculator("20261123T100000", "UTC").remaining(for: since).progress == nil, "counting up")
    }

    @Test func theCountdownCalendarSaysHowMuchIsDone() {
        let zone = Zone.named("Europe/Berlin")!
        let today = CivilDate(parsing: "20261123")!
        let series = CountdownSeries(Self.term(), preparedAt: Make.instant("20261123T100000", in: "Europe/Berlin"), floatingZone: zone)
        let calendar = CountdownCalendar(feed: Feed(slug: "school", timeZone: "Europe/Berlin", countdownMode: .daily(days: 30)), today: today, zone: zone)
            .calendar(for: [series]).calendar
        let titles = calendar.events.compactMap { $0.component.first("SUMMARY")?.value }
        #expect(titles.first == "End of term — 25 days (76% done)")
        #expect(titles.last == "End of term — Today")
    }

    @Test func countsFromTravelsThroughTheExportAndTheDraft() throws {
        let text = CountdownArchive.text(of: Self.term())
        #expect(text.contains("X-TMINUS-FROM;VALUE=DATE:20260901\r\n"))
        #expect(try CountdownArchive.countdown(from: text)?.countsFrom == CivilDate(parsing: "20260901"))
        var countdown = Self.term()
        var draft = CountdownDraft()
        draft.from = "2027-01-01"
        #expect(throws: CountdownDraft.Invalid.self) { try draft.apply(to: &countdown, feedZone: "UTC") }
        draft.from = ""
        try draft.apply(to: &countdown, feedZone: "UTC")
        #expect(countdown.countsFrom == nil)
    }
}
