import Foundation

/// One instance of an event or task, placed in time.
public struct Occurrence: Sendable, Hashable {
    /// `VEVENT` or `VTODO`.
    public var componentName: String
    public var uid: String
    public var summary: String?
    /// Start as the source shapes it (date, floating, UTC or zoned).
    public var start: DateTimeValue
    public var end: DateTimeValue?
    public var startInstant: Date
    public var endInstant: Date?
    /// The original start of this instance within its series; nil for a one-off.
    public var recurrenceId: DateTimeValue?
    /// The instant `recurrenceId` denotes, for comparing and printing in UTC.
    public var recurrenceInstant: Date?
    /// True when a RECURRENCE-ID override supplied this instance.
    public var isOverride: Bool

    public var isAllDay: Bool { start.isAllDay }
}
