import Foundation
import ICalendar

/// Where a countdown can at the earliest stand in its feed's soonest-first
/// list, kept with its row so that the first page of a feed is one indexed
/// read of its first rows instead of the compile of all of them (issue #41).
///
/// The list orders by (rank, the start of the occurrence shown, title, UID),
/// where rank is 1 for a done, cancelled or past countdown and 0 otherwise.
/// The bound is a lower bound of (rank, start), valid for every viewer zone
/// at every instant from the one it was computed at on:
/// - `rank` is 1 for a countdown that is not active (a status only a write
///   changes) or that is over everywhere for ever (past from then on); else
///   0, which is lower than a past one's, so still a bound;
/// - `from` is the start, read in UTC, less `zoneSlack`, of the earliest
///   occurrence that may still be shown somewhere: a one-off's only one; for
///   a repeat counting down, the first that ended less than `overHorizon`
///   ago (a viewer zone moves floating times by at most 14 hours and keeps an
///   occurrence "today" for at most a day after its end); for one counting
///   up, the one shown `margin` before that instant. The occurrence a list
///   shows only moves later as time passes, so no zone at no later instant
///   shows one that starts earlier.
///
/// A bound only loosens as time passes (it stays true), so an old one costs a
/// wider read, never a wrong order; `checkAt` says when computing it again
/// would tighten it, and the server does so in the background.
public struct PlaceBound: Sendable, Hashable, Codable {
    /// 1 for a done or cancelled countdown, or one over everywhere for ever; else 0.
    public var rank: Int
    /// No occurrence this countdown shows in a list, anywhere, from the time
    /// the bound was computed on, starts before this (seconds since 1970);
    /// `Int64.max` when it has no occurrence at all, `Int64.min` for a past
    /// repeat (where among the past ones is not looked for).
    public var from: Int64
    /// When computing the bound again would give a later `from` (seconds since
    /// 1970); `Int64.max`: never, until the countdown changes.
    public var checkAt: Int64

    public init(rank: Int, from: Int64, checkAt: Int64) {
        self.rank = rank
        self.from = from
        self.checkAt = checkAt
    }

    /// How long before the instant of computing the occurrence is chosen: a
    /// day that an occurrence may stay "today" after its end, 14 hours that a
    /// zone may move a floating time, and an hour for a daylight-saving jump.
    public static let margin: TimeInterval = 39 * 3_600
    /// How much earlier than its UTC reading a floating time may start in some zone (UTC+14), and an hour.
    public static let zoneSlack: TimeInterval = 15 * 3_600
    /// The same for a one-off's time as written, whatever its zone (a custom VTIMEZONE's offset too).
    static let oneOffSlack: TimeInterval = 26 * 3_600
    /// How long after its end (read in UTC) an occurrence may still be shown somewhere: a day it stays
    /// "today", 14 hours of zone, a day for an all-day date's end, and an hour for a daylight-saving jump.
    static let overHorizon: TimeInterval = 63 * 3_600
    /// The same for a timed occurrence, which has no all-day date's end: a repeat's stale bounds (those
    /// a first page must prepare) cover 39 hours of its occurrences instead of 63.
    static let timedOverHorizon: TimeInterval = 39 * 3_600

    /// How long after its end an occurrence of `countdown` may still be shown somewhere.
    static func overHorizon(of countdown: Countdown) -> TimeInterval {
        countdown.target.isAllDay ? overHorizon : timedOverHorizon
    }

    /// The bound of `countdown` from `instant` on. A repeat's COUNT is walked
    /// from its start: plain rules by arithmetic (`PlainRuleExpander`), so an
    /// import places every row exactly and leaves the round nothing to do.
    public init(_ countdown: Countdown, at instant: Date, maxOccurrences: Int = 100_000) {
        rank = countdown.status == .active ? 0 : 1
        if !countdown.isRepeating, countdown.overrides.isEmpty {
            // A one-off shows its one occurrence for ever: its start, read as if in UTC, less a day
            // and two hours (any zone's offset), without asking libical (an import places every row).
            // Once over everywhere it is past for ever, after every active countdown.
            let start = Zone.utc.instant(of: countdown.target.local)
            let pastFrom = Self.oneOffEnd(countdown, start: start).addingTimeInterval(Self.overHorizon(of: countdown))
            from = Self.seconds(start.addingTimeInterval(-Self.oneOffSlack))
            if pastFrom <= instant { rank = 1 }
            checkAt = rank == 1 ? .max : Self.seconds(pastFrom)
            return
        }
        if countdown.direction != .up {
            // Counting down shows the first occurrence not over. One over everywhere ended more than
            // `overHorizon` ago (a day it may stay "today", 14 hours of zone, a day of all-day dates if any):
            // the first occurrence that ends later bounds every one shown from now on. One expansion
            // of a few occurrences, not a series (an import places every row).
            let overHorizon = Self.overHorizon(of: countdown)
            let horizon = instant.addingTimeInterval(-overHorizon)
            let read = Self.readInUTC(countdown) ?? countdown
            let expander = CountdownSeries.expander(for: read, floatingZone: .utc)
            let items = expander.prepare(CountdownSeries.components(for: read))
            // Windows that widen: a weekly repeat is found in days, a yearly one in a year, without
            // walking the dozens of occurrences a 1,000-year window asks the iterator for.
            var found: [Occurrence] = []
            for days in [8.0, 400, 365_250] where found.isEmpty {
                found = expander.occurrences(of: items, in: DateInterval(start: horizon, duration: days * 86_400), limit: 4).occurrences
            }
            guard let first = found.min(by: { $0.startInstant < $1.startInstant }) else {
                // Over everywhere for ever: past, after every active countdown (where among the past,
                // its last occurrence says, which this does not look for).
                (rank, from, checkAt) = (1, .min, .max)
                return
            }
            from = Self.seconds(first.startInstant.addingTimeInterval(-Self.zoneSlack))
            let end = first.endInstant.map { max($0, first.startInstant) } ?? first.startInstant
            checkAt = max(Self.seconds(end.addingTimeInterval(overHorizon + 3_600)), Self.seconds(instant.addingTimeInterval(3_600)))
            return
        }
        // Counting up shows the latest occurrence begun, which only the series knows.
        let then = instant.addingTimeInterval(-Self.margin)
        let series = CountdownSeries(countdown, preparedAt: then, floatingZone: .utc, maxOccurrences: maxOccurrences, keepingDates: false)
        let placement = RemainingTimeCalculator(now: then, zone: .utc, maxOccurrences: maxOccurrences).placement(for: series)
        guard let shown = placement.occurrence else {
            (from, checkAt) = (.max, .max)
            return
        }
        from = Self.seconds(shown.startInstant.addingTimeInterval(-Self.zoneSlack))
        // The next one's start is not at hand, so look daily; a done or cancelled one sorts with the others like it.
        checkAt = rank == 1 || !countdown.isRepeating ? .max : Self.seconds(instant.addingTimeInterval(86_400))
    }

    /// When a one-off's occurrence ends, read as if in UTC: its end, else its
    /// start and duration, else its start (the next midnight for a date).
    static func oneOffEnd(_ countdown: Countdown, start: Date) -> Date {
        if let end = countdown.end { return max(start, Zone.utc.instant(of: end.local)) }
        if let duration = countdown.duration, !duration.isNegative {
            return start.addingTimeInterval(Double(duration.days) * 86_400 + Double(duration.seconds))
        }
        return countdown.target.isAllDay ? start.addingTimeInterval(86_400) : start
    }

    /// `countdown` with its times read as if in UTC and without exceptions,
    /// for a repeat by rule alone: a zone moves its times by at most 14 hours
    /// (`zoneSlack` covers it) and an exception only takes occurrences away,
    /// so its occurrences start no later than the countdown's own, and
    /// expanding it converts no time through a zone (most of an import's cost
    /// when each row was expanded in its own). Nil when RDATEs, moved occurrences or an UNTIL
    /// (compared with times so read) ask for the countdown as it is.
    static func readInUTC(_ countdown: Countdown) -> Countdown? {
        guard countdown.recurrenceDates.isEmpty, countdown.overrides.isEmpty,
              let rule = countdown.repeatRule.rrule(startingOn: countdown.target.civilDate), !rule.uppercased().contains("UNTIL") else { return nil }
        let floating = { (value: DateTimeValue) -> DateTimeValue in value.isAllDay ? value : .floating(value.local) }
        var read = countdown
        read.target = floating(countdown.target)
        read.end = countdown.end.map(floating)
        read.exceptionDates = []
        read.timeZoneDefinitions = []
        return read
    }

    /// Whether every countdown with this bound comes after one shown as
    /// (`rank`, `start`) in the list (a tie on both is not enough: titles decide it).
    public func comesAfter(rank shownRank: Int, start: Date) -> Bool {
        if shownRank != rank { return shownRank < rank }
        guard from != .max else { return start != .distantFuture }
        return start.timeIntervalSince1970 < Double(from)
    }

    /// Whole seconds, rounded down, clamped to what a bound holds.
    public static func seconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970.rounded(.down)
        guard value.isFinite else { return value < 0 ? .min : .max }
        return Int64(max(-9_000_000_000_000, min(9_000_000_000_000, value)))
    }
}
