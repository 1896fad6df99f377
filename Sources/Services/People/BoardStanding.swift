import CountdownStore
import Foundation

/// A member's line on their space's board: tasks of the space's feeds they
/// completed in the period (the last to change a completed task is who
/// completed it).
public struct BoardStanding: Sendable, Equatable {
    public var login: String
    public var name: String
    public var completed: Int
    /// Seconds of focus in the period (issue #42): studies kept in their focus feed.
    public var focusedSeconds: Int = 0
    /// The person asking: they may hide or show themselves.
    public var isMe: Bool
}

/// Which period a board counts.
public enum BoardPeriod: String, Sendable, CaseIterable {
    case week, month, year

    /// The period's start, in UTC, that `now` falls in (weeks start on Monday).
    public func start(containing now: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        calendar.firstWeekday = 2
        let component: Calendar.Component = switch self {
        case .week: .weekOfYear
        case .month: .month
        case .year: .year
        }
        return calendar.dateInterval(of: component, for: now)?.start ?? now
    }
}
