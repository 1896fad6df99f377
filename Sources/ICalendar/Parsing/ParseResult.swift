/// What parsing produced: every VCALENDAR in the input and every problem found.
public struct ParseResult: Sendable {
    public var calendars: [VCalendar]
    public var diagnostics: [Diagnostic]

    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }

    /// All calendars merged into one (files with several VCALENDARs exist in the
    /// wild): the first calendar's header, everyone's components.
    public var calendar: VCalendar {
        guard var merged = calendars.first else { return VCalendar.empty() }
        for other in calendars.dropFirst() {
            merged.timeZones += other.timeZones.filter { zone in !merged.timeZones.contains { $0.tzid == zone.tzid } }
            merged.events += other.events
            merged.todos += other.todos
            merged.otherComponents += other.otherComponents
        }
        return merged
    }
}
