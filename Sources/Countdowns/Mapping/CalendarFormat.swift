import ICalendar

/// `tminus format`'s rewrite of a whole calendar: what was understood
/// (`ItemRepair`), with repeats in another calendar spelled out for the
/// readers that refuse RSCALE (`OtherCalendarDates`), so that the output
/// passes `tminus validate`, Python's icalendar and recurring-ical-events.
public enum CalendarFormat {
    /// The calendar to write, and what was changed to get it (warnings with lines).
    public static func formatted(_ calendar: VCalendar, rscale: OtherCalendarDates.Form, today: CivilDate) -> (calendar: VCalendar, notes: [Diagnostic]) {
        var (written, notes) = ItemRepair.repaired(calendar)
        if rscale == .dates {
            let spelling = OtherCalendarDates(form: .dates, today: today)
            written.events = written.events.map { VEvent(component: spelling.spelledOut($0.component)) }
            written.todos = written.todos.map { VTodo(component: spelling.spelledOut($0.component)) }
        }
        return (written, notes)
    }
}
