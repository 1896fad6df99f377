import Foundation
import ICalendar

/// When a set of countdowns makes someone busy within a window: each event's
/// occurrences, cut to the window and merged where they overlap. Tasks and
/// transparent events (TRANSP:TRANSPARENT) take no time. What a CalDAV
/// free-busy-query answers and what a busy-only member's page shows, from
/// the same expansion as every other output.
public enum BusyTimes {
    /// At most this many periods before merging: a range of years over minutely repeats would otherwise spell out millions.
    public static let maxPeriods = 10_000

    public static func periods(of countdowns: [Countdown], feed: Feed, within window: DateInterval) -> [DateInterval] {
        var busy: [DateInterval] = []
        for countdown in countdowns where countdown.kind != .task && busy.count < maxPeriods {
            let calendar = CalendarExport.calendar(feed: CalendarExport.asObjects(feed), countdowns: [countdown])
            guard calendar.events.first?.component.first("TRANSP")?.value.uppercased() != "TRANSPARENT" else { continue }
            for occurrence in OccurrenceExpander(calendar: calendar, floatingZone: feed.zone).occurrences(in: calendar, in: window, limit: 1_000).occurrences {
                let end = occurrence.endInstant ?? occurrence.startInstant
                guard end > occurrence.startInstant else { continue }
                busy.append(DateInterval(start: max(occurrence.startInstant, window.start), end: min(end, window.end)))
            }
        }
        var merged: [DateInterval] = []
        for period in busy.sorted(by: { $0.start < $1.start }) {
            if let last = merged.last, period.start <= last.end {
                merged[merged.count - 1] = DateInterval(start: last.start, end: max(last.end, period.end))
            } else {
                merged.append(period)
            }
        }
        return merged
    }
}
