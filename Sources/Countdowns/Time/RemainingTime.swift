import Foundation
import ICalendar

/// Where a countdown stands at one instant, for one viewer.
public struct RemainingTime: Sendable, Hashable {
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        /// Still ahead.
        case upcoming
        /// An all-day event on the viewer's today, or a timed one starting today.
        case today
        /// Between its start and its end.
        case running
        /// A one-off that has ended (or a cancelled / completed item).
        case past
    }

    public var state: State
    /// The occurrence counted to (or, counting up, from).
    public var occurrence: Occurrence?
    /// The occurrence's date in the viewer's zone.
    public var date: CivilDate
    /// Calendar days from the viewer's today to `date`; negative when it lies behind.
    public var days: Int
    /// The unit shown (never `.dynamic`: that is resolved here).
    public var unit: DisplayUnit
    /// The amount in `unit`, never negative; for `.detailed`, whole days.
    public var amount: Int
    public var breakdown: Breakdown
    /// Working days from the viewer's today to `date`, like `days` but without
    /// the feed's weekend days and holidays; negative when it lies behind.
    public var workdays: Int
    /// For yearly repeats: 30 for "Anna turns 30", 5 for the 5th anniversary.
    public var occurrenceNumber: Int?
    /// The title with `{n}` / `{nth}` filled in.
    public var title: String
    /// "33 days", "1 day", "Today", "3 months", "2y 1mo 4d".
    public var text: String
    /// True when counting up (time since).
    public var isCountingUp: Bool
    /// How much of the span has passed, 0 to 1 (three decimals): from the
    /// countdown's `countsFrom`, or a repeat's previous occurrence, to the
    /// occurrence counted to. Nil when there is no span (a one-off without
    /// `countsFrom`, or counting up).
    public var progress: Double? = nil
}
