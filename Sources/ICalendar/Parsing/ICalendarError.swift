/// Why a calendar could not be read at all.
public enum ICalendarError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The input has no `BEGIN:VCALENDAR`: it is some other kind of file.
    case notICalendar(String)
    /// Strict mode found errors; every one is listed.
    case invalid([Diagnostic])
    /// A limit the caller set was exceeded.
    case limitExceeded(String)

    public var description: String {
        switch self {
        case .notICalendar(let why): "not an iCalendar file: \(why)"
        case .invalid(let diagnostics):
            "the calendar has \(diagnostics.count) error(s):\n" + diagnostics.map { "  " + $0.description }.joined(separator: "\n")
        case .limitExceeded(let why): "limit exceeded: \(why)"
        }
    }
}
