import Foundation
import ICalendar

/// How often a client should poll a feed that sets no `refresh:`, from how
/// often the feed actually changed (issue #39): a holiday calendar written once
/// a year is asked for daily, a timetable edited through the day hourly.
///
/// Derived from the change log up to the feed's last change (`asOf`, its
/// `updatedAt`), never from the clock, so every replica writes the same bytes
/// for one revision. Changes within the same hour (one import of 500 events)
/// are one change. The hint is a quarter of the typical (median) gap between
/// changes over the last 90 days, rounded to one of `steps`; with fewer than
/// three changes there is no gap to go by, and the feed counts as rarely changed.
public enum RefreshHint {
    /// What clients are offered: an hour at the least (Apple and Outlook poll no faster anyway), a day at the most.
    public static let steps: [ICalDuration] = [ICalDuration(seconds: 3_600), ICalDuration(seconds: 3 * 3_600),
                                               ICalDuration(seconds: 6 * 3_600), ICalDuration(seconds: 12 * 3_600), ICalDuration(days: 1)]
    /// How far back changes count.
    public static let window: TimeInterval = 90 * 86_400

    public static func interval(changes: [Date], asOf last: Date) -> ICalDuration {
        let since = last.addingTimeInterval(-window)
        let hours = Set(changes.filter { $0 >= since && $0 <= last }.map(hourOf) + [hourOf(last)])
        let moments = hours.sorted()
        guard moments.count >= 3 else { return steps[steps.count - 1] }
        let gaps = zip(moments.dropFirst(), moments).map { $0 - $1 }.sorted()
        let typicalHours = Double(gaps[gaps.count / 2])
        let wanted = typicalHours * 3_600 / 4
        return steps.last { Double($0.days * 86_400 + $0.seconds) <= wanted } ?? steps[0]
    }

    private static func hourOf(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / 3_600).rounded(.down)) }
}
