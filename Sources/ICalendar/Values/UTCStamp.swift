import Foundation

/// The one place an instant becomes UTC text: `20261122T082000Z` in iCalendar
/// values (DTSTAMP, LAST-MODIFIED), `2026-11-22T08:20:00Z` in JSON.
public enum UTCStamp {
    /// iCalendar's basic form, `YYYYMMDDTHHMMSSZ`.
    public static func basic(_ instant: Date) -> String { Zone.utc.local(of: instant).basic + "Z" }

    /// ISO 8601 extended form, `YYYY-MM-DDTHH:MM:SSZ`.
    public static func iso(_ instant: Date) -> String { Zone.utc.local(of: instant).iso + "Z" }

    /// A date for an all-day value (`YYYY-MM-DD`), else the instant in UTC: how
    /// JSON output names an occurrence's start or end.
    public static func iso(_ value: DateTimeValue, at instant: Date) -> String {
        value.isAllDay ? value.civilDate.iso : iso(instant)
    }
}

extension Occurrence {
    /// `YYYY-MM-DD` for an all-day occurrence, else its start in UTC with `Z`.
    public var isoStart: String { UTCStamp.iso(start, at: startInstant) }
}
