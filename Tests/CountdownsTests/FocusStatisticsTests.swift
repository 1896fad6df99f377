import Foundation
import ICalendar
import Testing
@testable import Countdowns

/// What focused time adds up to (issue #42): per tag and bar, shares,
/// streaks and levels, from entries alone.
struct FocusStatisticsTests {
    static let zone = Zone.named("Europe/Berlin")!

    static func entry(_ tag: String, _ day: CivilDate, hour: Int = 9, minutes: Int) -> FocusEntry {
        FocusEntry(tag: tag, start: zone.instant(of: LocalDateTime(date: day, hour: hour, minute: 0, second: 0)), seconds: minutes * 60)
    }

    @Test func aWeekAddsUpPerTagAndDay() {
        let monday = CivilDate(year: 2027, month: 3, day: 1)
        let entries = [Self.entry("Maths", monday, minutes: 50), Self.entry("Maths", monday.adding(days: 2), minutes: 25),
                       Self.entry("Art", monday.adding(days: 2), minutes: 25), Self.entry("Art", monday.adding(days: 7), minutes: 99)]
        let stats = FocusStatistics(entries: entries, span: CategoryStatistics.Span(.week, containing: monday.adding(days: 3)), zone: Self.zone,
                                    today: monday.adding(days: 3))
        #expect(stats.totalMinutes == 100 && stats.tags.map(\.name) == ["Maths", "Art"])
        #expect(stats.tags[0].perBucket == [50, 0, 25, 0, 0, 0, 0] && stats.tags[0].share == 0.75)
        #expect(stats.streak == 1 && stats.longestStreak == 1, "yesterday counts while today has none yet; no two days in a row")
    }

    @Test func aStreakCountsUpToTodayOrYesterday() {
        let today = CivilDate(year: 2027, month: 3, day: 10)
        let days = Set((1...4).map { today.adding(days: -$0) } + [today.adding(days: -9), today.adding(days: -8)])
        #expect(FocusStatistics.streaks(days, today: today) == (4, 4))
        #expect(FocusStatistics.streaks(days.union([today]), today: today) == (5, 5))
    }

    @Test(arguments: [(0, 1, 0.0), (59, 1, 59.0 / 60), (60, 2, 0.0), (180, 3, 0.0), (600, 5, 0.0), (Int.max, 1, 0.0)])
    func levelsStartAtThirtyLTimesLMinusOne(points: Int, level: Int, progress: Double) {
        let reached = FocusStatistics.Level(points: points)
        if points == Int.max {
            #expect(reached.level > 1000, "a huge count reaches a high level without trapping")
        } else {
            #expect(reached.level == level && abs(reached.progress - progress) < 1e-9)
        }
    }
}
