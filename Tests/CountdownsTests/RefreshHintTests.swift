import Foundation
import Testing
import ICalendar
@testable import Countdowns

/// The refresh interval of a feed that sets none, from how often it changed (issue #39).
struct RefreshHintTests {
    static let last = Date(timeIntervalSince1970: 1_795_338_000)   // 2026-11-22 09:00 UTC
    static func hours(_ offsets: [Double]) -> [Date] { offsets.map { last.addingTimeInterval(-$0 * 3_600) } }

    @Test func aCalendarWrittenOnceIsAskedForDaily() {
        #expect(RefreshHint.interval(changes: [], asOf: Self.last) == ICalDuration(days: 1))
        // One import of many events is one change, however many rows it logged.
        #expect(RefreshHint.interval(changes: Self.hours([0, 0.01, 0.02, 0.3]), asOf: Self.last) == ICalDuration(days: 1))
    }

    @Test func aTimetableEditedThroughTheDayIsAskedForHourly() {
        #expect(RefreshHint.interval(changes: Self.hours([0, 1, 2, 3, 5, 6, 8]), asOf: Self.last) == ICalDuration(seconds: 3_600))
    }

    @Test func aDailyChangeIsAskedForEverySixHoursAndAWeeklyOneDaily() {
        #expect(RefreshHint.interval(changes: Self.hours((0..<10).map { Double($0) * 24 }), asOf: Self.last) == ICalDuration(seconds: 6 * 3_600))
        #expect(RefreshHint.interval(changes: Self.hours((0..<10).map { Double($0) * 24 * 7 }), asOf: Self.last) == ICalDuration(days: 1))
        #expect(RefreshHint.interval(changes: Self.hours((0..<10).map { Double($0) * 12 }), asOf: Self.last) == ICalDuration(seconds: 3 * 3_600))
    }

    /// Only changes up to the feed's last one, and within 90 days of it, count: never the clock.
    @Test func onlyTheNinetyDaysBeforeTheLastChangeCount() {
        let old = Self.hours((0..<10).map { 100 * 24 + Double($0) })
        #expect(RefreshHint.interval(changes: old, asOf: Self.last) == ICalDuration(days: 1))
        let later = Self.hours((1...10).map { -Double($0) })
        #expect(RefreshHint.interval(changes: later, asOf: Self.last) == ICalDuration(days: 1))
    }
}
