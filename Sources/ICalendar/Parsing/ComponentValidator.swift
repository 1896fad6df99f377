/// Checks the values tminus relies on in each VEVENT and VTODO, so that every
/// problem is reported with its line, UID and property rather than surfacing
/// later as a wrong countdown.
struct ComponentValidator {
    let calendar: VCalendar
    private let resolver: ZoneResolver

    init(calendar: VCalendar) {
        self.calendar = calendar
        resolver = ZoneResolver(calendar: calendar)
    }

    func validate() -> [Diagnostic] {
        var out: [Diagnostic] = []
        for timeZone in calendar.timeZones {
            if let tzid = timeZone.tzid, resolver.zone(for: tzid) == nil {
                out.append(Diagnostic(.error, line: timeZone.line, component: "VTIMEZONE", property: "TZID",
                                      "VTIMEZONE '\(tzid)' cannot be read by libical and is not a known zone name"))
            }
        }
        // Each item is checked on its own, so large calendars are checked on every core.
        out += calendar.events.concurrentMap { check($0.component, required: "DTSTART") }.joined()
        out += calendar.todos.concurrentMap { check($0.component, required: nil) }.joined()
        out += ignoredCopies()
        return out
    }

    /// Older copies of a master that a newer copy with the same UID replaces.
    /// A first pass keeps only the hashes of the masters' UIDs, so that a
    /// 100,000-event import without copies (nearly all) groups nothing; the
    /// items whose hash repeats are then grouped for real.
    private func ignoredCopies() -> [Diagnostic] {
        let items = calendar.events.lazy.map(\.component) + calendar.todos.lazy.map(\.component)
        func key(_ item: Component) -> Int? {
            guard item.first("RECURRENCE-ID") == nil, let uid = item.first("UID")?.value else { return nil }
            return uid.hashValue
        }
        var seen = Set<Int>(), repeated = Set<Int>()
        for item in items { if let key = key(item), !seen.insert(key).inserted { repeated.insert(key) } }
        guard !repeated.isEmpty else { return [] }
        var out: [Diagnostic] = []
        for series in RecurringSeries.group(items.filter { key($0).map(repeated.contains) ?? false }) {
            guard let master = series.master else { continue }
            for ignored in series.ignoredMasters.sorted(by: { $0.line < $1.line }) {
                out.append(Diagnostic(.warning, line: ignored.line, component: ignored.name, uid: series.uid,
                                      "an older copy of this \(ignored.name) is ignored: the copy at line \(master.line) "
                                      + "is newer (\(EditPrecedence.reason(master, over: ignored)))"))
            }
        }
        return out
    }

    private func check(_ component: Component, required: String?) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let uid = component.first("UID")?.text
        func report(_ severity: Diagnostic.Severity, _ property: Property?, _ name: String, _ message: String) {
            out.append(Diagnostic(severity, line: property?.line ?? component.line, component: component.name,
                                  uid: uid, property: name, message))
        }
        if uid == nil { report(.warning, nil, "UID", "no UID; one will be derived from the content") }
        if let required, component.first(required) == nil {
            report(.error, nil, required, "\(component.name) has no \(required), so it cannot be placed in time")
        }
        for name in ["DTSTART", "DTEND", "DUE", "RECURRENCE-ID"] {
            guard let property = component.first(name) else { continue }
            if let value = DateTimeValue(property: property) {
                // Read leniently ("2027-01-20" is understood), but it is not iCalendar's form, and other programs refuse it.
                if !DateTimeValue.isBasicForm(property.value) {
                    let type = if case .date = value { "a DATE value (RFC 5545 writes \(value.valueText))" } else { "a DATE-TIME value (RFC 5545 writes \(value.valueText))" }
                    report(.warning, property, name, "'\(property.value.prefix(40))' is not \(type); read as \(value)")
                }
            } else {
                report(.error, property, name, "'\(property.value.prefix(40))' is not a valid DATE or DATE-TIME")
            }
        }
        for property in ValueProblem.repeated(in: component).map({ component.properties[$0] }) {
            report(.warning, property, property.name, "\(property.name) appears more than once; the first is read")
        }
        // Values tminus can do without: reported here, left out by ItemRepair, with one judge (ValueProblem).
        for property in component.properties {
            if let problem = ValueProblem.problem(with: property) { report(.warning, property, property.name, problem + "; ignored") }
        }
        for property in component.all("EXDATE") where DateTimeValue.values(of: property) == nil {
            report(.error, property, "EXDATE", "'\(property.value.prefix(60))' holds a value that is not a DATE or DATE-TIME")
        }
        for property in component.all("RDATE") where RecurrenceDate.values(of: property) == nil {
            report(.error, property, "RDATE", "'\(property.value.prefix(60))' holds a value that is not a DATE, DATE-TIME or PERIOD")
        }
        let start = component.first("DTSTART").flatMap(DateTimeValue.init(property:))
        for property in component.all("RRULE") {
            do {
                let rule = try RecurrenceRule(parsing: property.value)
                if let start, let problem = UnreachableRule.problem(with: rule, from: start) {
                    report(.error, property, "RRULE", problem)
                }
            } catch {
                report(.error, property, "RRULE", "invalid rule '\(property.value.prefix(60))': \(error.message)")
            }
        }
        if let duration = component.first("DURATION") {
            if ICalDuration(parsing: duration.value) == nil {
                report(.error, duration, "DURATION", "'\(duration.value.prefix(40))' is not a valid DURATION")
            }
            if let end = component.first(component.name == "VTODO" ? "DUE" : "DTEND") {
                report(.error, end, end.name, "\(end.name) and DURATION must not both be given")
            }
        }
        if let start = component.first("DTSTART").flatMap(DateTimeValue.init(property:)),
           let endProperty = component.first(component.name == "VTODO" ? "DUE" : "DTEND"),
           let end = DateTimeValue(property: endProperty) {
            if start.isAllDay != end.isAllDay {
                report(.warning, endProperty, endProperty.name, "DTSTART and \(endProperty.name) differ in value type (DATE vs DATE-TIME)")
            } else if resolver.instant(of: end) < resolver.instant(of: start) {
                report(.warning, endProperty, endProperty.name, component.name == "VTODO"
                       ? "ends before it starts; the end is ignored"
                       : "ends before it starts; DTSTART and DTEND are swapped, as calendar clients do")
            }
        }
        for property in component.properties {
            if let tzid = property.parameter("TZID"), resolver.zone(for: tzid) == nil {
                report(.error, property, property.name,
                       "unknown TZID '\(tzid.prefix(60))' (not a zone name and no VTIMEZONE defines it); its times are read as floating")
            }
        }
        return out
    }
}
