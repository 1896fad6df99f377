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
    /// STATUS of the component this instance came from (an override's, a
    /// THISANDFUTURE override's, or the master's); nil when it has none.
    public var status: Status? = nil

    /// RFC 5545 §3.8.1.11's values for events and tasks.
    public enum Status: String, Sendable, Hashable {
        case tentative = "TENTATIVE", confirmed = "CONFIRMED", cancelled = "CANCELLED"
        case needsAction = "NEEDS-ACTION", completed = "COMPLETED", inProcess = "IN-PROCESS"

        /// Reads a component's STATUS; unknown values are nil.
        public init?(of component: Component) {
            guard let text = component.first("STATUS")?.text.trimmingCharacters(in: .whitespaces).uppercased() else { return nil }
            self.init(rawValue: text)
        }
    }

    public var isCancelled: Bool { status == .cancelled }

    public var isAllDay: Bool { start.isAllDay }
}
