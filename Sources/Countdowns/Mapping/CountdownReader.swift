import Foundation
import Synchronization
import ICalendar

/// VEVENT / VTODO (with its RECURRENCE-ID overrides) → Countdown. Everything
/// not modelled lands in `extraProperties` / `extraComponents` untouched.
public enum CountdownReader {
    /// Properties the Countdown models; all others are kept as they are.
    static let modelled: Set<String> = [
        "UID", "SUMMARY", "DESCRIPTION", "LOCATION", "URL", "DTSTART", "DTEND", "DURATION", "DUE", "RDATE", "EXDATE",
        "CATEGORIES", "COLOR", "PRIORITY", TMinusProperty.warning, "PERCENT-COMPLETE", "COMPLETED", "SEQUENCE", "LAST-MODIFIED", "CREATED", "DTSTAMP",
        TMinusProperty.direction, TMinusProperty.unit, TMinusProperty.from, TMinusProperty.gradient, TMinusProperty.textColor, TMinusProperty.image,
        TMinusProperty.title,
    ]

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case noStart(line: Int, uid: String?)
        public var description: String {
            switch self {
            case .noStart(let line, let uid):
                "line \(line)\(uid.map { " (UID \($0))" } ?? ""): no DTSTART or DUE, so there is nothing to count down to"
            }
        }
    }

    /// Every countdown in a calendar, grouped by UID; unusable items are reported, not thrown.
    /// `repairing` (the default) keeps what was understood (`ItemRepair`); text tminus
    /// wrote itself (the store's, `CountdownArchive`) was repaired when it was first read.
    public static func countdowns(in calendar: VCalendar, source: String?, repairing: Bool = true) -> (countdowns: [Countdown], skipped: [Failure]) {
        // One item per countdown to be: a master with its overrides, or an override
        // whose master is missing (it still describes a real instance).
        let items = RecurringSeries.group(calendar.events.map(\.component) + calendar.todos.map(\.component))
            .flatMap { series in series.master.map { [($0, series.overrides)] } ?? series.overrides.map { ($0, []) } }
        // Countdowns are written straight into the result (a failed item leaves a
        // placeholder, removed in place below): a second array of 100,000 countdowns
        // of several hundred bytes each was a memory peak of its own.
        let failures = Mutex<[(index: Int, failure: Failure)]>([])
        // What is kept is what was understood (ItemRepair), so every export of it is valid.
        let repair = repairing ? ItemRepair(calendar: calendar) : nil
        var result = Array(items.indices).concurrentMap { index -> Countdown in
            do throws(Failure) {
                func understood(_ component: Component) -> ItemRepair.Result {
                    repair?.repaired(component) ?? ItemRepair.Result(component: component, notes: [])
                }
                let master = understood(items[index].0)
                let overrides = items[index].1.map(understood)
                guard let component = master.component else {
                    throw .noStart(line: items[index].0.line, uid: items[index].0.first("UID")?.text)
                }
                var countdown = try countdown(from: component, overrides: overrides.compactMap(\.component), source: source)
                for note in ([master] + overrides).flatMap(\.notes) {
                    let text = note.property.map { "\($0): \(note.message)" } ?? note.message
                    if !countdown.warnings.contains(text) { countdown.warnings.append(text) }
                }
                return countdown
            } catch {
                failures.withLock { $0.append((index, error)) }
                return Countdown(uid: "", title: "", target: .date(CivilDate(year: 1970, month: 1, day: 1)), kind: .event)
            }
        }
        let failed = failures.withLock { $0 }.sorted { $0.index < $1.index }
        result.removeSubranges(RangeSet(failed.map(\.index), within: result))
        let skipped = failed.map(\.failure)
        // Keep the definitions of zones only this calendar knows, with the countdowns that use them.
        let custom = calendar.timeZones.filter { $0.tzid.map { TimeZoneRegistry.shared.zone(named: $0) == nil } ?? false }
        if !custom.isEmpty {
            for index in result.indices {
                let used = Set(([CountdownWriter.master(result[index], options: .init())] + result[index].overrides)
                    .flatMap(\.properties).compactMap { $0.parameter("TZID") })
                result[index].timeZoneDefinitions = custom.filter { used.contains($0.tzid ?? "") }.map(\.component)
            }
        }
        return (result, skipped)
    }

    /// What an export of tminus says it changed on the way in (`X-TMINUS-WARNING`),
    /// as warnings at their lines: `tminus validate` shows them beside its own.
    public static func keptWarnings(in calendar: VCalendar) -> [Diagnostic] {
        (calendar.events.map(\.component) + calendar.todos.map(\.component)).flatMap { item in
            item.all(TMinusProperty.warning).map { property in
                Diagnostic(.warning, line: property.line, component: item.name, uid: item.first("UID")?.text,
                           property: TMinusProperty.warning, "changed when it was read from a calendar: \(property.text)")
            }
        }
    }

    /// The longest a task given by DTSTART and DURATION may take (a century) for its due time to be worked out.
    static let longestTaskDays = 36_600

    public static func countdown(from component: Component, overrides: [Component], source: String?) throws(Failure) -> Countdown {
        let isTask = component.name == VTodo.componentName
        let item = VEvent(component: component)   // CalendarItem accessors are shared with VTodo
        var due = VTodo(component: component).due
        if isTask, due == nil, let start = item.dtstart, let duration = VTodo(component: component).duration, !duration.isNegative, !duration.isZero,
           duration.days <= Self.longestTaskDays, duration.seconds <= Self.longestTaskDays * 86_400 {
            // A task given a start and how long it takes is due when that time is up (RFC 5545 §3.6.2);
            // its start is kept beside it (below), so a calendar app's time-range search finds it as before.
            // The duration comes from whoever sent the calendar: bounded before any arithmetic.
            let seconds = Int64(duration.days) * 86_400 + Int64(duration.seconds)
            due = start.with(local: LocalDateTime(wallSeconds: start.local.wallSeconds + seconds))
        }
        guard let target = isTask ? (due ?? item.dtstart) : item.dtstart else {
            throw .noStart(line: component.line, uid: item.uid)
        }
        let uid = item.uid ?? StableUID.derive(from: component)
        // Text is cleaned and links are checked here, on the way in (see SafeText, SafeLink).
        // tminus's own export keeps a title with `{n}` beside the SUMMARY it could write (`TMinusProperty.title`);
        // a SUMMARY changed since (by a calendar app) is the title then.
        let summary = item.summary ?? ""
        let title = component.first(TMinusProperty.title)?.text.stillBehind(summary) ?? summary
        var countdown = Countdown(uid: uid, title: SafeText.title(title), target: target, kind: isTask ? .task : .event)
        countdown.notes = SafeText.clean(item.descriptionText)
        countdown.location = SafeText.clean(item.location)
        countdown.url = SafeLink.filtered(item.url, as: .url)
        countdown.source = source
        var extras = component.properties.filter { !modelled.contains($0.name) }
        if isTask {
            if due != nil, let start = component.first("DTSTART") { extras.insert(start, at: 0) }
            countdown.duration = nil
        } else {
            countdown.end = item.component.first("DTEND").flatMap(DateTimeValue.init(property:))
            countdown.duration = VEvent(component: component).duration
        }
        let rrules = component.all("RRULE")
        if let first = rrules.first {
            countdown.repeatRule = Repeat(rrule: first.value, startingOn: target.civilDate)
            extras.removeAll { $0 == first }
        } else if let kept = component.first(OtherCalendarDates.ruleProperty) {
            // An export that spelled a rule in another calendar out as dates only.
            countdown.repeatRule = Repeat(rrule: kept.value, startingOn: target.civilDate)
        }
        extras.removeAll { $0.name == OtherCalendarDates.ruleProperty }
        // RDATEs an export spelled out are the rule's own dates: the rule makes them again.
        countdown.recurrenceDates = component.all("RDATE").filter { $0.parameter(OtherCalendarDates.parameter) == nil }
            .flatMap { RecurrenceDate.values(of: $0) ?? [] }
        countdown.exceptionDates = item.exdates
        countdown.overrides = overrides
        countdown.categories = item.categories.map(SafeText.clean)
        countdown.calendarColor = item.color
        countdown.priority = item.priority.flatMap { (0...9).contains($0) ? $0 : nil }
        countdown.sequence = max(0, item.sequence ?? 0)
        countdown.created = item.created.map(Self.instant)
        // DTSTAMP is when a file was written, not when the item changed: not a substitute.
        countdown.lastModified = item.lastModified.map(Self.instant)

        let status = item.status
        let todo = VTodo(component: component)
        countdown.percentComplete = todo.percentComplete.flatMap { (0...100).contains($0) ? $0 : nil }
        countdown.completedAt = todo.completed
        if status == "CANCELLED" { countdown.status = .cancelled; extras.removeAll { $0.name == "STATUS" } }
        else if isTask && todo.isCompleted { countdown.status = .completed; extras.removeAll { $0.name == "STATUS" } }

        if let image = component.all("IMAGE").first(where: { $0.parameter("VALUE")?.uppercased() != "BINARY" }) {
            countdown.presentation.image = SafeLink.filtered(image.value, as: .image)
            extras.removeAll { $0 == image }
        }
        if let image = component.first(TMinusProperty.image) { countdown.presentation.image = SafeLink.filtered(image.value, as: .image) }
        countdown.presentation.gradient = component.first(TMinusProperty.gradient)?.value
            .split(separator: ",").compactMap { Presentation.normalizeHex(String($0)) } ?? []
        countdown.presentation.textColor = component.first(TMinusProperty.textColor).flatMap { Presentation.normalizeHex($0.value) }
        countdown.direction = component.first(TMinusProperty.direction).flatMap { Direction(rawValue: $0.value.lowercased()) } ?? .down
        countdown.displayUnit = component.first(TMinusProperty.unit).flatMap { DisplayUnit(rawValue: $0.value.lowercased()) } ?? .dynamic
        countdown.countsFrom = component.first(TMinusProperty.from).flatMap { CivilDate(parsing: $0.value) }

        for alarm in component.children(VAlarm.componentName) {
            if let offset = simpleDisplayAlarm(alarm) { countdown.alarms.append(offset) } else { countdown.extraComponents.append(alarm) }
        }
        countdown.extraComponents += component.components.filter { $0.name != VAlarm.componentName }
        countdown.warnings = component.all(TMinusProperty.warning).map(\.text)
        countdown.extraProperties = extras
        return countdown
    }

    /// A DISPLAY alarm relative to the start with nothing else in it is just an offset.
    static func simpleDisplayAlarm(_ component: Component) -> ICalDuration? {
        let alarm = VAlarm(component: component)
        guard alarm.action == "DISPLAY", let offset = alarm.triggerOffset,
              (component.first("TRIGGER")?.parameter("RELATED")?.uppercased() ?? "START") == "START",
              component.properties.allSatisfy({ ["ACTION", "TRIGGER", "DESCRIPTION"].contains($0.name) }),
              component.components.isEmpty else { return nil }
        return offset
    }

    static func instant(_ value: DateTimeValue) -> Date { Zone.utc.instant(of: value.local) }
}

private extension String {
    /// This title with `{n}` if the SUMMARY is still what tminus wrote for it.
    func stillBehind(_ summary: String) -> String? {
        Countdown.hasNumber(self) && Countdown.withoutNumber(self) == summary ? self : nil
    }
}
