import Foundation
import ICalendar

/// The window `tminus occurrences` lists, with one rule for every kind of
/// occurrence: it is listed when it overlaps [from, to), the end not included.
/// A date on the command line means its midnight in `--tz`, and an all-day
/// occurrence is read as whole days in `--tz` too. The expander places a DATE
/// at midnight in the calendar's X-WR-TIMEZONE (Google sets it), which put an
/// all-day event on the `--to` date inside the window of a viewer west of that
/// zone, while a timed event at the same midnight was left out.
struct OccurrenceWindow {
    let interval: DateInterval
    let zone: Zone

    /// Where the expander must search: a day wider on each side, because no
    /// zone is more than 14 hours from UTC; `contains` then cuts exactly.
    var search: DateInterval {
        DateInterval(start: interval.start.addingTimeInterval(-86_400), end: interval.end.addingTimeInterval(86_400))
    }

    func contains(_ occurrence: Occurrence) -> Bool {
        var start = occurrence.startInstant
        var end = occurrence.endInstant ?? start
        if occurrence.isAllDay {
            let first = occurrence.start.civilDate
            let after = occurrence.end.flatMap { $0.isAllDay && $0.civilDate > first ? $0.civilDate : nil } ?? first.adding(days: 1)
            start = zone.instant(of: LocalDateTime(date: first))
            end = zone.instant(of: LocalDateTime(date: after))
        }
        if end > start { return start < interval.end && end > interval.start }
        return start >= interval.start && start < interval.end
    }
}
