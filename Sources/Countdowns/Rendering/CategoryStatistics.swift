import Foundation
import ICalendar

/// Per-category figures over a day, week, month or year: how many occurrences
/// fall in it (cancelled ones not counted), split into bars (the months of a
/// year, the weeks of a month, the days of a week), and the longest running
/// count-up. Weeks are ISO weeks (Monday first). Pure: series, zone and instant
/// come from the caller.
public struct CategoryStatistics: Sendable {
    public enum Period: String, Sendable, CaseIterable { case day, week, month, year }

    /// The days a period covers (`end` exclusive), and how they split into bars.
    public struct Span: Sendable, Equatable {
        public var period: Period
        public var start: CivilDate
        public var end: CivilDate
        public var buckets: [(label: String, start: CivilDate, end: CivilDate)]

        public static func == (a: Span, b: Span) -> Bool {
            a.period == b.period && a.start == b.start && a.end == b.end && a.buckets.map(\.start) == b.buckets.map(\.start)
        }

        /// The span of `period` that contains `date`.
        public init(_ period: Period, containing date: CivilDate) {
            self.period = period
            switch period {
            case .day:
                start = date
                end = date.adding(days: 1)
                buckets = [(String(date.day), start, end)]
            case .week:
                let monday = date.adding(days: -((date.weekday + 6) % 7))
                start = monday
                end = monday.adding(days: 7)
                buckets = (0..<7).map { offset in
                    let day = monday.adding(days: offset)
                    return (["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][offset] + " \(day.day)", day, day.adding(days: 1))
                }
            case .month:
                start = CivilDate(year: date.year, month: date.month, day: 1)
                end = date.month == 12 ? CivilDate(year: date.year + 1, month: 1, day: 1) : CivilDate(year: date.year, month: date.month + 1, day: 1)
                var weeks: [(String, CivilDate, CivilDate)] = []
                var cursor = start
                while cursor < end {
                    let monday = cursor.adding(days: -((cursor.weekday + 6) % 7))
                    let next = min(monday.adding(days: 7), end)
                    weeks.append(("\(cursor.day)–\(next.adding(days: -1).day)", cursor, next))
                    cursor = next
                }
                buckets = weeks
            case .year:
                let newYear = CivilDate(year: date.year + 1, month: 1, day: 1)
                start = CivilDate(year: date.year, month: 1, day: 1)
                end = newYear
                buckets = (1...12).map { month in
                    let first = CivilDate(year: date.year, month: month, day: 1)
                    let next = month == 12 ? newYear : CivilDate(year: date.year, month: month + 1, day: 1)
                    return (["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][month - 1], first, next)
                }
            }
        }

        /// The span before or after this one.
        public func moved(by steps: Int) -> Span {
            switch period {
            case .day: Span(period, containing: start.adding(days: steps))
            case .week: Span(period, containing: start.adding(days: 7 * steps))
            case .month:
                Span(period, containing: CivilDate(year: start.year + Int((Double(start.month - 1 + steps) / 12).rounded(.down)),
                                                   month: ((start.month - 1 + steps) % 12 + 12) % 12 + 1, day: 1))
            case .year: Span(period, containing: CivilDate(year: start.year + steps, month: 1, day: 1))
            }
        }
    }

    public struct Category: Sendable, Equatable {
        public var name: String
        public var color: String
        public var occurrences: Int
        public var perBucket: [Int]
        /// The count-up that has run longest, and for how many days, at the span's end (or now, if earlier).
        public var longestCountUp: (title: String, days: Int)?

        public static func == (a: Category, b: Category) -> Bool {
            a.name == b.name && a.occurrences == b.occurrences && a.perBucket == b.perBucket
                && a.longestCountUp?.title == b.longestCountUp?.title && a.longestCountUp?.days == b.longestCountUp?.days
        }
    }

    public static let uncategorised = "Uncategorised"

    public let span: Span
    public let categories: [Category]

    public init(feeds: [Agenda.FeedSeries], span: Span, zone: Zone, now: Date, perSeriesLimit: Int = 5_000) {
        self.span = span
        let window = DateInterval(start: zone.instant(of: LocalDateTime(date: span.start)), end: zone.instant(of: LocalDateTime(date: span.end)))
        let measuredAt = min(now, window.end.addingTimeInterval(-1))
        let calculator = RemainingTimeCalculator(now: measuredAt, zone: zone)
        var byName: [String: Category] = [:]
        for feed in feeds {
            for series in feed.series {
                let countdown = series.countdown
                let names = countdown.categories.isEmpty ? [Self.uncategorised] : countdown.categories
                let dates = countdown.status == .cancelled ? [] : series.occurrences(in: window, zone: zone, includingCancelled: false, limit: perSeriesLimit)
                    .map { $0.isAllDay ? $0.start.civilDate : zone.local(of: $0.startInstant).date }
                    .filter { $0 >= span.start && $0 < span.end }
                var countUp: (String, Int)?
                if countdown.direction == .up {
                    let remaining = calculator.remaining(for: series)
                    if remaining.isCountingUp, remaining.days <= 0 { countUp = (remaining.title, -remaining.days) }
                }
                for name in names {
                    var category = byName[name] ?? Category(name: name, color: feed.categoryColors[name] ?? "", occurrences: 0,
                                                            perBucket: Array(repeating: 0, count: span.buckets.count))
                    if category.color.isEmpty, let color = feed.categoryColors[name] { category.color = color }
                    category.occurrences += dates.count
                    for date in dates {
                        if let index = span.buckets.firstIndex(where: { date >= $0.start && date < $0.end }) { category.perBucket[index] += 1 }
                    }
                    if let (title, days) = countUp, days > (category.longestCountUp?.days ?? -1) { category.longestCountUp = (title, days) }
                    byName[name] = category
                }
            }
        }
        var sorted = byName.values.sorted { ($0.name == Self.uncategorised ? 1 : 0, $0.name.lowercased()) < ($1.name == Self.uncategorised ? 1 : 0, $1.name.lowercased()) }
        let colors = CategoryPalette.colors(for: feeds)
        for index in sorted.indices { sorted[index].color = colors[sorted[index].name] ?? CategoryPalette.uncategorised }
        categories = sorted
    }
}
