import Foundation
import ICalendar

/// One agenda across feeds: every occurrence, task due date and alarm in a
/// window of days, grouped by day in the viewer's zone, each in its category's
/// colour (`CategoryPalette`), or its own or its feed's. Cancelled instances stay in, marked, so that an
/// agenda can strike them through. Pure: the caller gives the series, the zone
/// and the instant.
public struct Agenda: Sendable {
    public struct FeedSeries: Sendable {
        public var slug: String
        public var name: String
        public var color: String?
        public var categoryColors: [String: String]
        public var series: [CountdownSeries]

        public init(slug: String, name: String, color: String?, categoryColors: [String: String], series: [CountdownSeries]) {
            self.slug = slug
            self.name = name
            self.color = color
            self.categoryColors = categoryColors
            self.series = series
        }
    }

    public struct Entry: Sendable, Equatable {
        public enum Kind: String, Sendable { case event, task, alarm }
        public var kind: Kind
        public var date: CivilDate
        /// `HH:MM` in the viewer's zone; nil for all-day entries.
        public var time: String?
        public var instant: Date
        public var title: String
        public var feed: String
        public var feedName: String
        public var color: String
        public var countdownID: Int64?
        public var cancelled: Bool
        public var done: Bool
    }

    public struct Day: Sendable, Equatable {
        public var date: CivilDate
        public var isToday: Bool
        public var entries: [Entry]
    }

    public let days: [Day]
    /// True when a series had more occurrences than one agenda lists.
    public let truncated: Bool

    /// Entries for `dayCount` days from `first` (in `zone`); `now` decides which day is today.
    public init(feeds: [FeedSeries], from first: CivilDate, dayCount: Int, zone: Zone, now: Date, perSeriesLimit: Int = 400) {
        let last = first.adding(days: max(1, dayCount) - 1)
        let window = DateInterval(start: zone.instant(of: LocalDateTime(date: first)), end: zone.instant(of: LocalDateTime(date: last.adding(days: 1))))
        let today = zone.local(of: now).date
        var entries: [Entry] = []
        var truncated = false
        let categoryColors = CategoryPalette.colors(for: feeds)
        for feed in feeds {
            for series in feed.series {
                let countdown = series.countdown
                // The category's colour (set, or assigned as on the statistics page), else the countdown's or the feed's own.
                let color = countdown.categories.lazy.compactMap { feed.categoryColors[$0] ?? categoryColors[$0] }.first
                    ?? countdown.presentation.gradient.first ?? feed.color ?? CategoryPalette.uncategorised
                // Alarms fire before their occurrence: look a little past the window for them.
                let offsets = countdown.alarms.map { Double($0.signedDays * 86_400 + $0.signedSeconds) }
                let lead = max(0, -(offsets.min() ?? 0))
                let search = DateInterval(start: window.start, end: window.end.addingTimeInterval(lead))
                let found = series.occurrences(in: search, zone: zone, includingCancelled: true, limit: perSeriesLimit)
                if found.count >= perSeriesLimit { truncated = true }
                let numbering = countdown.repeatRule.yearNumbering
                for occurrence in found {
                    let number = numbering?.number(on: occurrence.start.civilDate, from: countdown.target.civilDate)
                    let title = Countdown.render(occurrence.summary ?? countdown.title, occurrenceNumber: number)
                    let cancelled = occurrence.isCancelled || countdown.status == .cancelled
                    let base = Entry(kind: countdown.kind == .task ? .task : .event, date: Self.day(occurrence, zone), time: Self.time(occurrence, zone),
                                     instant: occurrence.startInstant, title: title, feed: feed.slug, feedName: feed.name, color: color,
                                     countdownID: countdown.id, cancelled: cancelled, done: countdown.status == .completed)
                    if window.contains(occurrence.startInstant) || (occurrence.isAllDay && base.date >= first && base.date <= last) { entries.append(base) }
                    guard !cancelled, countdown.status == .active else { continue }
                    for seconds in offsets {
                        let instant = occurrence.startInstant.addingTimeInterval(seconds)
                        guard window.contains(instant) else { continue }
                        let local = zone.local(of: instant)
                        var entry = base
                        entry.kind = .alarm
                        entry.instant = instant
                        entry.date = local.date
                        entry.time = String(format: "%02d:%02d", local.hour, local.minute)
                        entries.append(entry)
                    }
                }
            }
        }
        entries.sort { ($0.date, $0.time == nil ? 0 : 1, $0.instant, $0.title) < ($1.date, $1.time == nil ? 0 : 1, $1.instant, $1.title) }
        var days: [Day] = []
        for entry in entries {
            if days.last?.date == entry.date { days[days.count - 1].entries.append(entry) } else {
                days.append(Day(date: entry.date, isToday: entry.date == today, entries: [entry]))
            }
        }
        if today >= first, today <= last, !days.contains(where: { $0.isToday }) {
            let index = days.firstIndex { $0.date > today } ?? days.count
            days.insert(Day(date: today, isToday: true, entries: []), at: index)
        }
        self.days = days
        self.truncated = truncated
    }

    static func day(_ occurrence: Occurrence, _ zone: Zone) -> CivilDate {
        occurrence.isAllDay ? occurrence.start.civilDate : zone.local(of: occurrence.startInstant).date
    }

    static func time(_ occurrence: Occurrence, _ zone: Zone) -> String? {
        guard !occurrence.isAllDay else { return nil }
        let local = zone.local(of: occurrence.startInstant)
        return String(format: "%02d:%02d", local.hour, local.minute)
    }
}
