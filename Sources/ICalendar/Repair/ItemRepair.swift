/// What tminus writes of a VEVENT or VTODO is what it understood of it, not the
/// bytes it was given: a calendar read leniently (a misspelt RRULE, an end before
/// the start, a PRIORITY of "high") is written back so that tminus's own
/// `validate`, Python's icalendar and recurring-ical-events all read it, and
/// each change is said in a note that stays with the item.
///
/// - an unknown TZID: the times are written floating, as they were read;
/// - a DTSTART, RECURRENCE-ID, DTEND, DUE, EXDATE or DURATION that is not of its
///   type is left out (an event without a start, or an override without its
///   instance, is left out whole: the caller says so);
/// - a rule libical cannot read is left out (the item is then its first
///   occurrence), unless a lenient reading understood it (a negative COUNT;
///   COUNT with UNTIL, written as the one that ends first);
///   a rule that can never match is left out too;
/// - RDATEs are written as they were read (a period with DATE bounds becomes its day);
/// - an end before the start is swapped with it, as it is read;
/// - DURATION beside DTEND (or DUE) is left out: the end is what is read;
/// - a value `ValueProblem` refuses is left out.
/// Unknown but well-formed properties are kept as they are.
public struct ItemRepair: Sendable {
    public struct Result: Sendable {
        /// nil: nothing of the item can be placed in time (see `notes`).
        public var component: Component?
        /// What was changed, as warnings with the line of the property changed.
        public var notes: [Diagnostic]

        public init(component: Component?, notes: [Diagnostic]) {
            self.component = component
            self.notes = notes
        }
    }

    private let resolver: ZoneResolver

    public init(calendar: VCalendar) {
        resolver = ZoneResolver(calendar: calendar)
    }

    /// A whole calendar as it was understood (`tminus format`): items that cannot
    /// be placed in time and VTIMEZONEs nothing can read are left out.
    public static func repaired(_ calendar: VCalendar) -> (calendar: VCalendar, notes: [Diagnostic]) {
        let repair = ItemRepair(calendar: calendar)
        var written = calendar
        var notes: [Diagnostic] = []
        written.timeZones = calendar.timeZones.filter { timeZone in
            guard let tzid = timeZone.tzid, repair.resolver.zone(for: tzid) == nil else { return true }
            notes.append(Diagnostic(.warning, line: timeZone.line, component: "VTIMEZONE", property: "TZID",
                                    "VTIMEZONE '\(tzid.prefix(60))' cannot be read; left out (its times are written floating)"))
            return false
        }
        let events = calendar.events.map { repair.repaired($0.component) }
        let todos = calendar.todos.map { repair.repaired($0.component) }
        written.events = events.compactMap { $0.component.map(VEvent.init(component:)) }
        written.todos = todos.compactMap { $0.component.map(VTodo.init(component:)) }
        notes += (events + todos).flatMap(\.notes)
        return (written, notes.sorted { $0.line < $1.line })
    }

    public func repaired(_ original: Component) -> Result {
        var item = original
        var notes: [Diagnostic] = []
        let uid = original.first("UID")?.text
        func note(_ property: Property?, _ name: String, _ message: String) {
            notes.append(Diagnostic(.warning, line: property?.line ?? original.line, component: original.name, uid: uid,
                                    property: name, message))
        }
        let isTodo = original.name == "VTODO"

        for index in ValueProblem.repeated(in: original).reversed() {
            let property = item.properties.remove(at: index)
            note(property, property.name, "\(property.name) appeared more than once; the first is read, this one left out")
        }
        floatUnknownZones(&item) { note($0, $0.name, $1) }
        for name in ["DTSTART", "RECURRENCE-ID", "DTEND", "DUE"] {
            for property in item.all(name) where DateTimeValue(property: property) == nil {
                item.remove(name)
                note(property, name, "'\(property.value.prefix(40))' is not a DATE or DATE-TIME; left out")
            }
        }
        if original.first("RECURRENCE-ID") != nil, item.first("RECURRENCE-ID") == nil {
            note(nil, "RECURRENCE-ID", "this edit of one instance does not say which; left out")
            return Result(component: nil, notes: notes)
        }
        if !isTodo, item.first("DTSTART") == nil {
            note(nil, "DTSTART", "\(original.name) has no usable DTSTART; left out")
            return Result(component: nil, notes: notes)
        }

        let endName = isTodo ? "DUE" : "DTEND"
        if !isTodo, let startProperty = item.first("DTSTART"), let endProperty = item.first("DTEND"),
           let start = DateTimeValue(property: startProperty), let end = DateTimeValue(property: endProperty),
           resolver.instant(of: end) < resolver.instant(of: start) {
            // Read the other way round (SeriesShape), so written the other way round.
            var (first, last) = (endProperty, startProperty)
            (first.name, last.name) = ("DTSTART", "DTEND")
            item.set("DTSTART", first)
            item.set("DTEND", last)
            note(endProperty, "DTEND", "ended before it started; DTSTART and DTEND are written swapped, as they are read")
        }
        if let duration = item.first("DURATION") {
            if ICalDuration(parsing: duration.value) == nil {
                item.remove("DURATION")
                note(duration, "DURATION", "'\(duration.value.prefix(40))' is not a valid DURATION; left out")
            } else if item.first(endName) != nil {
                item.remove("DURATION")
                note(duration, "DURATION", "given beside \(endName), which is what is read; left out")
            }
        }

        for property in item.all("EXDATE") + item.all("RDATE") where property.value.isEmpty {
            item.properties.removeAll { $0 == property }
            note(property, property.name, "empty; left out")
        }
        for property in item.all("EXDATE") where DateTimeValue.values(of: property) == nil {
            item.properties.removeAll { $0 == property }
            note(property, "EXDATE", "'\(property.value.prefix(60))' holds a value that is not a DATE or DATE-TIME; left out")
        }
        let start = item.first("DTSTART").flatMap(DateTimeValue.init(property:))
            ?? item.first("DUE").flatMap(DateTimeValue.init(property:))
        repairDates(&item, start: start) { note($0, "RDATE", $1) }
        for name in ["RRULE", "EXRULE"] {
            repairRules(name, &item, start: start, kind: isTodo ? "task" : "event") { note($0, name, $1) }
        }
        for property in item.properties {
            if let problem = ValueProblem.problem(with: property) {
                item.properties.removeAll { $0 == property }
                note(property, property.name, problem + "; left out")
            }
        }
        for index in item.components.indices {
            floatUnknownZones(&item.components[index]) { note($0, $0.name, $1) }
        }
        return Result(component: item, notes: notes)
    }

    /// An unknown TZID was read as floating time: so it is written.
    private func floatUnknownZones(_ component: inout Component, note: (Property, String) -> Void) {
        for index in component.properties.indices {
            guard let tzid = component.properties[index].parameter("TZID"), resolver.zone(for: tzid) == nil else { continue }
            note(component.properties[index], "TZID '\(tzid.prefix(60))' is not a zone name and no VTIMEZONE defines it; written as floating time, as it is read")
            component.properties[index].setParameter("TZID", nil)
        }
    }

    private func repairDates(_ item: inout Component, start: DateTimeValue?, note: (Property, String) -> Void) {
        let properties = item.all("RDATE")
        guard properties.contains(where: { RecurrenceDate.values(of: $0) == nil }) else { return }
        var written: [Property] = []
        for property in properties {
            if RecurrenceDate.values(of: property) != nil { written.append(property); continue }
            guard let start, let values = RecurrenceDate.values(of: property, lenient: true) else {
                note(property, "'\(property.value.prefix(60))' holds a value that is not a DATE, DATE-TIME or PERIOD; left out")
                continue
            }
            let read = values.map { value -> RecurrenceDate in
                switch value.shaped(like: start) {
                case .period(let period) where period.start.isAllDay: .dateTime(period.start)
                case let shaped: shaped
                }
            }
            written += read.map { $0.property() }
            note(property, "'\(property.value.prefix(60))' is written as it is read: \(read.map { $0.property().value }.joined(separator: ","))")
        }
        item.setAll("RDATE", written)
    }

    /// COUNT and UNTIL together are read as "whichever ends first" (as calendar
    /// clients and recurring-ical-events read them); written as that one alone.
    static func oneLimit(_ rule: RecurrenceRule, start: DateTimeValue?) -> RecurrenceRule {
        guard let count = rule.count, let until = rule.until, let start else { return rule }
        let untilOnly = rule.removing(["COUNT"])
        let horizon = LocalDateTime(wallSeconds: max(until.local.wallSeconds, start.local.wallSeconds) + 2 * 86_400)
        let found = RuleExpander(rule: untilOnly, start: start.local, isDate: start.isAllDay).expand(from: nil, to: horizon, limit: count + 1)
        return found.occurrences.count >= count ? rule.removing(["UNTIL"]) : untilOnly
    }

    private func repairRules(_ name: String, _ item: inout Component, start: DateTimeValue?, kind: String,
                             note: (Property, String) -> Void) {
        let properties = item.all(name)
        guard !properties.isEmpty else { return }
        var written: [Property] = []
        for property in properties {
            do {
                let rule = try RecurrenceRule(parsing: property.value)
                if let start, let problem = UnreachableRule.problem(with: rule, from: start) {
                    note(property, "'\(property.value.prefix(60))' left out: \(problem)")
                    continue
                }
                written.append(property)
            } catch {
                if let lenient = (try? RecurrenceRule(parsing: property.value, lenient: true)).map({ Self.oneLimit($0, start: start) }),
                   (try? RecurrenceRule(parsing: lenient.text)) != nil {
                    var understood = property
                    understood.value = lenient.text
                    written.append(understood)
                    note(property, "'\(property.value.prefix(60))' is written as it is read, '\(lenient.text.prefix(60))' (\(error.message))")
                } else {
                    let left = name == "RRULE" ? "; the \(kind) is written as its first occurrence" : ""
                    note(property, "'\(property.value.prefix(60))' left out: \(error.message)\(left)")
                }
            }
        }
        item.setAll(name, written)
    }
}
