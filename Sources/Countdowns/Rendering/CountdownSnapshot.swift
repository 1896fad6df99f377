import Foundation
import ICalendar

/// The documented, versioned JSON shape of a feed's countdowns (`tminus list
/// --json`, `/feeds/{slug}.json`). Bump `version` on any breaking change.
public struct FeedSnapshot: Sendable, Codable, Equatable {
    public static let currentVersion = 1

    public var version: Int
    public var feed: String
    public var name: String
    public var timeZone: String
    /// The instant the remaining times were computed for (UTC, ISO 8601).
    public var generatedAt: String
    public var countdowns: [CountdownSnapshot]
    /// The feed's open tasks: overdue, due today, due this week (added in version 1; counted before `limit`).
    public var tasks: TaskCounts
    /// How many countdowns the whole list has (this page may hold fewer).
    public var total: Int
    /// The cursor of the next page (`?cursor=`), or nil on the last page.
    public var next: String?
}

public struct CountdownSnapshot: Sendable, Codable, Equatable {
    public struct Colors: Sendable, Codable, Equatable {
        public var gradient: [String]
        public var text: String?
    }

    public var id: Int64?
    public var uid: String
    /// The title with `{n}` filled in; `rawTitle` is what was saved.
    public var title: String
    public var rawTitle: String
    public var kind: String
    public var status: String
    public var state: String
    public var direction: String
    /// The occurrence counted to, as a date in the viewer's zone.
    public var date: String
    /// All-day: `YYYY-MM-DD`; timed: UTC `YYYY-MM-DDTHH:MM:SSZ`.
    public var start: String?
    public var allDay: Bool
    public var days: Int
    /// Working days to the date (`RemainingTime.workdays`): the feed's weekend and holidays left out.
    public var workdays: Int
    public var amount: Int
    public var unit: String
    public var text: String
    public var breakdown: Breakdown
    public var occurrenceNumber: Int?
    public var repeats: String
    public var categories: [String]
    public var colors: Colors
    /// A URL for the image; never the bytes.
    public var image: String?
    public var notes: String?
    public var location: String?
    public var url: String?
    public var priority: Int?
    /// 0 to 1: how much of the span to the target has passed (`RemainingTime.progress`).
    public var progress: Double?
    /// Who made it and changed it last: only the admin API sets these.
    public var createdBy: String?
    public var changedBy: String?

    public init(countdown: Countdown, remaining: RemainingTime, imageURL: (String) -> String? = { $0 }) {
        id = countdown.id
        uid = countdown.uid
        title = remaining.title
        rawTitle = countdown.title
        kind = countdown.kind.rawValue
        status = countdown.status.rawValue
        state = remaining.state.rawValue
        direction = countdown.direction.rawValue
        date = remaining.date.iso
        start = remaining.occurrence?.isoStart
        allDay = remaining.occurrence?.isAllDay ?? countdown.isAllDay
        days = remaining.days
        workdays = remaining.workdays
        amount = remaining.amount
        unit = remaining.unit.rawValue
        text = remaining.text
        breakdown = remaining.breakdown
        occurrenceNumber = remaining.occurrenceNumber
        repeats = RepeatPhrase.describe(countdown.repeatRule)
        categories = countdown.categories
        colors = Colors(gradient: countdown.presentation.gradient, text: countdown.presentation.textColor)
        image = countdown.presentation.image.flatMap(imageURL)
        notes = countdown.notes
        location = countdown.location
        url = countdown.url
        priority = countdown.priority
        progress = remaining.progress
    }
}

extension FeedSnapshot {
    /// Remaining times for every countdown, soonest first (`sort: .title` for alphabetical).
    public enum Sort: String, Sendable, CaseIterable, Codable { case remaining, title }

    public init(feed: Feed, countdowns: [Countdown], calculator: RemainingTimeCalculator, unit: DisplayUnit? = nil,
                sort: Sort = .remaining, imageURL: (String) -> String? = { $0 }) {
        self.init(feed: feed, rows: Self.rows(countdowns, calculator: calculator, unit: unit, sort: sort), calculator: calculator, imageURL: imageURL)
    }

    /// `tasks` defaults to the counts of `rows`; pass them when `rows` was cut to a limit.
    /// `tasks` and `total` default to those of `rows`; pass them when `rows` is one page of a longer list.
    public init<Rows: Collection<(Countdown, RemainingTime)>>(feed: Feed, rows: Rows, calculator: RemainingTimeCalculator, tasks: TaskCounts? = nil,
                                                              total: Int? = nil, next: String? = nil, imageURL: (String) -> String? = { $0 }) {
        self.init(version: Self.currentVersion, feed: feed.slug, name: feed.name, timeZone: calculator.zone.identifier,
                  generatedAt: UTCStamp.iso(calculator.now),
                  countdowns: rows.map { CountdownSnapshot(countdown: $0.0, remaining: $0.1, imageURL: imageURL) },
                  tasks: tasks ?? TaskCounts(rows: Array(rows), now: calculator.now), total: total ?? rows.count, next: next)
    }

    /// Countdowns with their remaining time, in display order: active ones by
    /// next occurrence (or by title), finished and cancelled ones last.
    public static func rows(_ countdowns: [Countdown], calculator: RemainingTimeCalculator, unit: DisplayUnit? = nil,
                            sort: Sort = .remaining) -> [(Countdown, RemainingTime)] {
        rows(countdowns.map { CountdownSeries($0, preparedAt: calculator.now, floatingZone: calculator.zone, maxOccurrences: calculator.maxOccurrences) },
             calculator: calculator, unit: unit, sort: sort)
    }

    /// The same for prepared series: arithmetic on kept occurrences, no expansion.
    public static func rows(_ series: [CountdownSeries], calculator: RemainingTimeCalculator, unit: DisplayUnit? = nil,
                            sort: Sort = .remaining) -> [(Countdown, RemainingTime)] {
        let remaining = series.map { calculator.remaining(for: $0, unit: unit) }
        let order = order(series, states: remaining.map(\.state), starts: remaining.map { $0.occurrence?.startInstant ?? .distantFuture },
                          titles: remaining.map(\.title), sort: sort)
        return order.map { (series[$0].countdown, remaining[$0]) }
    }

    /// The display order of `series` as indices, from each one's placement
    /// alone: what a list cut into pages keeps, and the same order `rows` gives.
    public static func order(_ series: [CountdownSeries], calculator: RemainingTimeCalculator, sort: Sort = .remaining) -> [Int] {
        let placements = series.map { calculator.placement(for: $0) }
        return order(series, states: placements.map(\.state), starts: placements.map { $0.occurrence?.startInstant ?? .distantFuture },
                     titles: placements.map(\.title), sort: sort)
    }

    /// Sorted as indices over keys computed once: sorting the (Countdown,
    /// RemainingTime) pairs themselves copied both structs at every move, and
    /// that was a quarter of a 10,000-countdown render.
    private static func order(_ series: [CountdownSeries], states: [RemainingTime.State], starts: [Date], titles: [String], sort: Sort) -> [Int] {
        let uids = series.map(\.countdown.uid)
        var order = Array(series.indices)
        switch sort {
        case .title:
            let keys = titles.map(sortKey)
            order.sort { (keys[$0], uids[$0]) < (keys[$1], uids[$1]) }
        case .remaining:
            let ranks = zip(series, states).map { rank(status: $0.countdown.status, state: $1) }
            order.sort { a, b in
                (ranks[a], starts[a], titles[a], uids[a]) < (ranks[b], starts[b], titles[b], uids[b])
            }
        }
        return order
    }

    /// A countdown's rank in a soonest-first list: 1 (after every other) when
    /// it is done, cancelled or past, else 0. `PlaceBound` bounds it.
    public static func rank(status: CountdownStatus, state: RemainingTime.State) -> Int {
        status != .active || state == .past ? 1 : 0
    }

    /// "🎄 Christmas" sorts under C: leading emoji and punctuation are ignored.
    static func sortKey(_ title: String) -> String {
        String(title.drop { !$0.isLetter && !$0.isNumber }).lowercased()
    }
}
