import Countdowns
import Foundation
import ICalendar

/// `after:` / `before:` / `from:` / `to:` of a rule: the days an event must
/// happen on. Each bound is a date (`2026-09-01`) or days from the import's
/// today in the feed's zone (`-7d`, `+365d`, `+2w`). `after` and `from` are
/// the first day in the window; `to` is the last day in it, `before` the first
/// day after it. A repeating event is in the window when one of its
/// occurrences overlaps it, so a weekly lesson that began years ago and goes
/// on is kept by `from: -7d`.
///
/// Relative windows are evaluated at each import: a URL source's window moves
/// with its refreshes, a file's with each reload.
package struct DateWindow: Sendable {
    package enum Bound: Sendable, Equatable {
        case date(CivilDate)
        case days(Int)

        package func date(today: CivilDate) -> CivilDate {
            switch self {
            case .date(let date): date
            case .days(let days): today.adding(days: days)
            }
        }
    }

    package struct Invalid: Error, CustomStringConvertible {
        package var description: String
    }

    /// The keys it was written with (`from`, `after/before`), for the dry run.
    package var keys: String
    /// The first day in the window, and the first day after it.
    package var first: Bound?
    package var pastLast: (Bound, plusOne: Bool)?

    package init?(after: String?, before: String?, from: String?, to: String?) throws {
        guard after != nil || before != nil || from != nil || to != nil else { return nil }
        if after != nil, from != nil { throw Invalid(description: "after: and from: both set the window's first day; choose one") }
        if before != nil, to != nil { throw Invalid(description: "before: and to: both set the window's end; choose one") }
        keys = [("after", after), ("from", from), ("before", before), ("to", to)].filter { $0.1 != nil }.map(\.0).joined(separator: "/")
        first = try (after.map { try Self.bound($0, "after") } ?? from.map { try Self.bound($0, "from") })
        if let before { pastLast = (try Self.bound(before, "before"), false) }
        if let to { pastLast = (try Self.bound(to, "to"), true) }
        if case .date(let start)? = first, case (.date(let end), let plusOne)? = pastLast,
           (plusOne ? end.adding(days: 1) : end) <= start {
            throw Invalid(description: "the window ends before it begins")
        }
    }

    /// `2026-09-01`, or a signed count of days or weeks: `-7d`, `+365d`, `2w`.
    package static func bound(_ raw: String, _ key: String) throws -> Bound {
        let text = raw.trimmingCharacters(in: .whitespaces)
        if let date = CivilDate(parsing: text) { return .date(date) }
        var digits = Substring(text)
        var sign = 1
        if digits.first == "+" || digits.first == "-" {
            if digits.first == "-" { sign = -1 }
            digits = digits.dropFirst()
        }
        if let unit = digits.last, unit == "d" || unit == "w", let count = Int(digits.dropLast()), count >= 0, count <= 36_600 {
            return .days(sign * count * (unit == "w" ? 7 : 1))
        }
        throw Invalid(description: "\(key): '\(raw)' is neither a date (2026-09-01) nor a number of days or weeks (-7d, +365d, +2w)")
    }

    /// The window as instants in the context's zone.
    package func interval(in context: RuleContext) -> DateInterval {
        let today = context.today
        let start = first.map { context.zone.instant(of: LocalDateTime(date: $0.date(today: today))) } ?? Date.distantPast
        let end = pastLast.map { bound, plusOne in
            let day = bound.date(today: today)
            return context.zone.instant(of: LocalDateTime(date: plusOne ? day.adding(days: 1) : day))
        } ?? Date.distantFuture
        return DateInterval(start: start, end: max(start, end))
    }

    /// Whether one of the countdown's occurrences overlaps the window.
    package func contains(_ countdown: Countdown, in context: RuleContext) -> Bool {
        let window = interval(in: context)
        guard window.duration > 0 else { return false }
        let expander = CountdownSeries.expander(for: countdown, floatingZone: context.zone)
        return !expander.occurrences(of: CountdownSeries.components(for: countdown), in: window, limit: 1).occurrences.isEmpty
    }
}
