import Foundation

/// The span of time CalDAV queries look into (RFC 4791 §5.2.6–5.2.7, the
/// `min-date-time` and `max-date-time` every calendar announces).
///
/// An `expand` from year 1 to 9999 over 150 birthdays spelled out 1.2 million
/// instances, and time ranges in the year 9000 made every series step through
/// seven thousand years (issue #59): an `expand` outside these bounds is
/// refused, and a time range is read within them (an open end ends here).
public enum CalendarBounds {
    /// 1900-01-01T00:00:00Z: birthdays of the oldest people alive.
    public static let earliest = Date(timeIntervalSince1970: -2_208_988_800)
    /// 2200-01-01T00:00:00Z.
    public static let latest = Date(timeIntervalSince1970: 7_258_118_400)

    public static let earliestText = "19000101T000000Z"
    public static let latestText = "22000101T000000Z"

    /// The most instances one `expand` answer spells out, over all its objects.
    public static let maxExpandedInstances = 10_000

    /// `start`–`end` within the bounds (nil ends are the bounds), or nil when nothing of it is inside them.
    public static func clamped(start: Date?, end: Date?) -> DateInterval? {
        let from = max(start ?? earliest, earliest), to = min(end ?? latest, latest)
        return from <= to ? DateInterval(start: from, end: to) : nil
    }

    /// The precondition an `expand` window breaks, if any: `min-date-time` or `max-date-time`.
    public static func refusal(of window: DateInterval) -> DAVName? {
        if window.start < earliest { return .c("min-date-time") }
        if window.end > latest { return .c("max-date-time") }
        return nil
    }
}
