import CalDAV
import Countdowns
import Foundation
import ICalendar
import Services

/// A calendar-query's filter applied to an object, and its `expand`: a
/// repeating event matches a time range when one of its occurrences overlaps
/// it, as tminus's own expansion (libical's rules) spells them out.
enum CalendarQuery {
    static func matches(_ object: CalendarObject, filter: CalendarFilter, feed: Feed) -> Bool {
        if let component = filter.component, (component == "VTODO") != object.isTask { return false }
        guard filter.hasTimeRange else { return true }
        guard let countdown = try? object.countdown() else { return false }
        let window = DateInterval(start: filter.start ?? .distantPast, end: max(filter.end ?? .distantFuture, filter.start ?? .distantPast))
        let calendar = CalendarExport.calendar(feed: feed, countdowns: [countdown])
        return !OccurrenceExpander(calendar: calendar, floatingZone: feed.zone).occurrences(in: calendar, in: window, limit: 1).occurrences.isEmpty
    }

    /// The object with each occurrence within `window` as a component of its
    /// own: start and end in UTC, a RECURRENCE-ID, no rule (RFC 4791 §9.6.5).
    static func expanded(_ countdown: Countdown, feed: Feed, within window: DateInterval, imageURL: @escaping @Sendable (String) -> String?) -> String {
        let source = CalendarExport.calendar(feed: feed, countdowns: [countdown], imageURL: imageURL)
        let occurrences = OccurrenceExpander(calendar: source, floatingZone: feed.zone).occurrences(in: source, in: window, limit: 10_000).occurrences
        guard let master = (source.events.map(\.component) + source.todos.map(\.component)).first else { return CalendarWriter().write(source) }
        var calendar = VCalendar.empty()
        for occurrence in occurrences {
            var instance = master
            for name in ["RRULE", "RDATE", "EXDATE", "EXRULE", "DTSTART", "DTEND", "DURATION", "DUE", "RECURRENCE-ID"] { instance.remove(name) }
            instance.set("DTSTART", Property(name: "DTSTART", value: Self.utc(occurrence.startInstant)))
            if let end = occurrence.endInstant { instance.set(instance.name == "VTODO" ? "DUE" : "DTEND", Property(name: instance.name == "VTODO" ? "DUE" : "DTEND", value: Self.utc(end))) }
            instance.set("RECURRENCE-ID", Property(name: "RECURRENCE-ID", value: Self.utc(occurrence.recurrenceInstant ?? occurrence.startInstant)))
            if let summary = occurrence.summary { instance.set("SUMMARY", Property(name: "SUMMARY", value: TextEscaping.escape(summary))) }
            if instance.name == "VTODO" { calendar.todos.append(VTodo(component: instance)) } else { calendar.events.append(VEvent(component: instance)) }
        }
        return CalendarWriter(timeZones: .keep).write(calendar)
    }

    static func utc(_ date: Date) -> String {
        Zone.utc.local(of: date).basic + "Z"
    }
}
