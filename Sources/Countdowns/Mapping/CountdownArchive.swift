import ICalendar

/// One countdown as a whole iCalendar document and back, losslessly: how the
/// store keeps each row (`content`), and how the web app keeps a deleted
/// countdown for Undo. Volatile fields (id, sequence, stamps, source) are not
/// part of it; their owners keep them.
public enum CountdownArchive {
    /// The canonical text: two versions of a countdown are equal when their texts are.
    public static func text(of countdown: Countdown) -> String {
        var canonical = countdown
        canonical.id = nil
        canonical.sequence = 0
        canonical.created = nil
        canonical.lastModified = nil
        canonical.source = nil
        var calendar = VCalendar.empty()
        calendar.timeZones = canonical.timeZoneDefinitions.map(VTimeZone.init(component:))
        for component in CountdownWriter.components(for: canonical, options: .init(includeAlarms: true)) {
            if component.name == VTodo.componentName { calendar.todos.append(VTodo(component: component)) }
            else { calendar.events.append(VEvent(component: component)) }
        }
        return CalendarWriter(timeZones: .keep).write(calendar)
    }

    /// The countdown a text holds; nil when it holds none. The text is the
    /// store's own, written from what was understood: read as it is, without
    /// `ItemRepair` (about a tenth of an export's time on 100,000 countdowns).
    public static func countdown(from text: String, source: String? = nil) throws -> Countdown? {
        let calendar = try ICalendarParser.parse(text, options: .trusted).calendar
        return CountdownReader.countdowns(in: calendar, source: source, repairing: false).countdowns.first
    }

    /// The countdown a text kept before issue #39 holds, as it is understood
    /// now (`ItemRepair`); nil when nothing in it changes.
    public static func repaired(_ text: String) throws -> Countdown? {
        let calendar = try ICalendarParser.parse(text, options: .trusted).calendar
        guard let repaired = CountdownReader.countdowns(in: calendar, source: nil).countdowns.first,
              Self.text(of: repaired) != text else { return nil }
        return repaired
    }
}
