import CalDAV
import Countdowns
import Foundation
import ICalendar
import Services

/// A calendar-query's filter applied to an object, and its `expand`: a
/// repeating event matches a time range when one of its occurrences overlaps
/// it, as tminus's own expansion (libical's rules) spells them out.
enum CalendarQuery {
    /// The instances an `expand` answer may still spell out (`CalendarBounds.maxExpandedInstances` in all).
    final class InstanceBudget {
        var remaining = CalendarBounds.maxExpandedInstances
        var exceeded = false
    }

    /// `index`: the feed's compiled series of the listing's revision, which
    /// answer a time range without a parse.
    static func matches(_ object: CalendarObject, filter: CalendarFilter, feed: Feed, index: SeriesIndex? = nil) -> Bool {
        // Events and tasks: a search for journals (or anything else) matches no object, and says so with an empty answer.
        if let component = filter.component, component != (object.isTask ? "VTODO" : "VEVENT") { return false }
        // A UID is the row's own: most searches by UID need no parse.
        let (byUID, others) = (filter.properties.filter { $0.name == "UID" }, filter.properties.filter { $0.name != "UID" })
        guard byUID.allSatisfy({ $0.matches([object.uid]) }) else { return false }
        guard filter.hasTimeRange || !others.isEmpty || filter.alarmRange != nil else { return true }
        // A range is looked into within the announced bounds: one wholly outside them matches nothing, unexpanded.
        let window = filter.hasTimeRange ? CalendarBounds.clamped(start: filter.start, end: filter.end) : nil
        if filter.hasTimeRange, window == nil { return false }
        if object.isUndated { return undatedTaskMatches(object, others: others, filter: filter, window: window, feed: feed) }
        // Only a time range: the compiled series answers it, from what it keeps when it can (issue #62: a week of
        // 10,000 events in milliseconds). A cancelled countdown's series is expanded as if active, so it is read as written.
        if let window, others.isEmpty, filter.alarmRange == nil, let id = object.row?.id, let overlaps = index?.overlaps(row: id, window) {
            return overlaps
        }
        guard let countdown = try? object.countdown() else { return false }
        let calendar = CalendarExport.calendar(feed: CalendarExport.asObjects(feed), countdowns: [countdown])
        guard let master = master(of: calendar) else { return false }
        for filter in others where !filter.matches(values(of: filter.name, in: master)) { return false }
        if let range = filter.alarmRange, !alarmTriggers(of: master, in: calendar, within: range, feed: feed) { return false }
        guard let window else { return true }
        return !OccurrenceExpander(calendar: calendar, floatingZone: feed.zone).occurrences(in: calendar, in: window, limit: 1).occurrences.isEmpty
    }

    /// A task without DTSTART or DUE, read from the text it was written as: its
    /// properties as they are, and a time range by RFC 4791 §9.9's last rows
    /// for VTODO (COMPLETED and CREATED say when it was; with neither, every range holds it).
    static func undatedTaskMatches(_ object: CalendarObject, others: [CalendarFilter.PropertyFilter], filter: CalendarFilter, window: DateInterval?,
                                   feed: Feed) -> Bool {
        guard let text = object.written, let calendar = try? ICalendarParser.parse(text, options: ParseOptions(mode: .lenient)).calendar,
              let master = calendar.todos.map(\.component).first(where: { $0.first("RECURRENCE-ID") == nil }) else { return false }
        for filter in others where !filter.matches(values(of: filter.name, in: master)) { return false }
        if let range = filter.alarmRange, !alarmTriggers(of: master, in: calendar, within: range, feed: feed) { return false }
        guard let window else { return true }
        let zones = ZoneResolver(calendar: calendar, floatingZone: feed.zone)
        func instant(_ name: String) -> Date? {
            master.first(name).flatMap(DateTimeValue.init(property:)).map(zones.instant(of:))
        }
        switch (instant("COMPLETED"), instant("CREATED")) {
        case (let completed?, let created?):
            return (window.start <= created || window.start <= completed) && (window.end >= created || window.end >= completed)
        case (let completed?, nil): return window.start <= completed && window.end >= completed
        case (nil, let created?): return window.end > created
        case (nil, nil): return true
        }
    }

    /// Whether an alarm of the object triggers within `range` for one of its occurrences (RFC 4791 §9.9):
    /// an absolute trigger by its time; a relative one by the occurrences that start (or, RELATED=END, end)
    /// within the range moved back by the trigger's offset, so one bounded look of the expander answers it.
    /// A day in an offset is 24 hours; an alarm's REPEAT is not counted.
    static func alarmTriggers(of master: Component, in calendar: VCalendar, within range: CalendarFilter.AlarmRange, feed: Feed) -> Bool {
        guard let bounds = CalendarBounds.clamped(start: range.start, end: range.end) else { return false }
        let expander = OccurrenceExpander(calendar: calendar, floatingZone: feed.zone)
        for alarm in master.children("VALARM") {
            guard let trigger = alarm.first("TRIGGER") else { continue }
            if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" {
                // RFC 5545 §3.8.6.3: an absolute trigger is in UTC.
                if case .utc(let local)? = DateTimeValue(property: trigger) {
                    let time = Zone.utc.instant(of: local)
                    if bounds.start <= time, time < bounds.end { return true }
                }
                continue
            }
            guard let offset = VAlarm(component: alarm).triggerOffset else { continue }
            let seconds = TimeInterval(offset.signedDays * 86_400 + offset.signedSeconds)
            let shifted = DateInterval(start: bounds.start.addingTimeInterval(-seconds), end: bounds.end.addingTimeInterval(-seconds))
            let fromEnd = trigger.parameter("RELATED")?.uppercased() == "END"
            if expander.occurrences(in: calendar, in: shifted, limit: 100).occurrences.contains(where: { occurrence in
                let time = fromEnd ? occurrence.endInstant ?? occurrence.startInstant : occurrence.startInstant
                return shifted.start <= time && time < shifted.end
            }) { return true }
        }
        return false
    }

    /// The object's one event or task (its overrides aside).
    static func master(of calendar: VCalendar) -> Component? {
        (calendar.events.map(\.component) + calendar.todos.map(\.component)).first
    }

    /// The unescaped values of a component's properties named `name`; a list
    /// property (CATEGORIES, RESOURCES) gives each of its values.
    static func values(of name: String, in component: Component) -> [String] {
        component.all(name).flatMap { property -> [String] in
            let list = name == "CATEGORIES" || name == "RESOURCES"
            return list ? TextEscaping.splitList(property.value).map(TextEscaping.unescape) : [TextEscaping.unescape(property.value)]
        }
    }

    /// The object with each occurrence within `window` as a component of its
    /// own: start and end in UTC, a RECURRENCE-ID, no rule (RFC 4791 §9.6.5).
    /// Each instance is taken from `budget`, which the whole answer shares; nil once it is spent.
    static func expanded(_ countdown: Countdown, feed: Feed, within window: DateInterval, budget: InstanceBudget,
                         imageURL: @escaping @Sendable (String) -> String?) -> String? {
        guard budget.remaining > 0 else {
            budget.exceeded = true
            return nil
        }
        let source = CalendarExport.calendar(feed: CalendarExport.asObjects(feed), countdowns: [countdown], imageURL: imageURL)
        // One more than is left: whether the budget suffices is then known without spelling out the rest.
        let found = OccurrenceExpander(calendar: source, floatingZone: feed.zone).occurrences(in: source, in: window, limit: budget.remaining + 1)
        // Cut short (more than was left, or more than the expander looks at): the answer would be incomplete.
        guard !found.truncated, found.occurrences.count <= budget.remaining else {
            budget.exceeded = true
            return nil
        }
        budget.remaining -= found.occurrences.count
        let occurrences = found.occurrences
        guard let master = master(of: source) else { return CalendarWriter().write(source) }
        var calendar = VCalendar.empty()
        for occurrence in occurrences {
            var instance = master
            for name in ["RRULE", "RDATE", "EXDATE", "EXRULE", "DTSTART", "DTEND", "DURATION", "DUE", "RECURRENCE-ID"] { instance.remove(name) }
            instance.set("DTSTART", Self.instanceTime("DTSTART", occurrence.start, at: occurrence.startInstant))
            let endName = instance.name == "VTODO" ? "DUE" : "DTEND"
            if let end = occurrence.endInstant { instance.set(endName, Self.instanceTime(endName, occurrence.end, at: end)) }
            instance.set("RECURRENCE-ID", Self.instanceTime("RECURRENCE-ID", occurrence.recurrenceId ?? occurrence.start,
                                                            at: occurrence.recurrenceInstant ?? occurrence.startInstant))
            // Each instance is one occurrence: its number filled in where the title has one (the rule's SUMMARY leaves it out).
            let number = countdown.repeatRule.occurrenceNumber(on: (occurrence.recurrenceId ?? occurrence.start).civilDate, from: countdown.target.civilDate)
            if let summary = occurrence.summary ?? (Countdown.hasNumber(countdown.title) ? countdown.title : nil) {
                instance.set("SUMMARY", Property(name: "SUMMARY", value: TextEscaping.escape(Countdown.render(summary, occurrenceNumber: number))))
            }
            if instance.name == "VTODO" { calendar.todos.append(VTodo(component: instance)) } else { calendar.events.append(VEvent(component: instance)) }
        }
        return CalendarWriter(timeZones: .keep).write(calendar)
    }

    /// A VFREEBUSY of the events' occurrences within `window` (tasks and
    /// transparent events take no time), merged where they overlap.
    static func freeBusy(_ objects: [CalendarObject], feed: Feed, within window: DateInterval, now: Date) -> String {
        let merged = BusyTimes.periods(of: objects.compactMap { try? $0.countdown() }, feed: feed, within: window)
        var component = Component(name: "VFREEBUSY", properties: [
            Property(name: "DTSTAMP", value: utc(now)), Property(name: "DTSTART", value: utc(window.start)), Property(name: "DTEND", value: utc(window.end)),
        ])
        component.properties += merged.map { Property(name: "FREEBUSY", value: "\(utc($0.start))/\(utc($0.end))") }
        var calendar = VCalendar.empty()
        calendar.otherComponents = [component]
        return CalendarWriter(timeZones: .keep).write(calendar)
    }

    /// One time of an expanded instance: a DATE-TIME with a zone in UTC (RFC 4791 §9.6.5), a DATE
    /// or a floating time as it is, so that an all-day series stays all-day and its RECURRENCE-ID
    /// keeps DTSTART's type (RFC 5545 §3.8.4.4): a phone showed all-day birthdays at midnight UTC.
    static func instanceTime(_ name: String, _ value: DateTimeValue?, at instant: Date) -> Property {
        if let value {
            switch value {
            case .date, .floating: return value.property(name)
            case .utc, .zoned: break
            }
        }
        return Property(name: name, value: utc(instant))
    }

    static func utc(_ date: Date) -> String {
        Zone.utc.local(of: date).basic + "Z"
    }
}
