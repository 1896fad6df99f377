import Foundation
import ICalendar

/// How a feed's open tasks (VTODOs not completed or cancelled) stand, for the
/// web app and for widgets (`"tasks"` in the feed's JSON):
/// - `overdue`: the due day is before today, or a due time has passed;
/// - `dueToday`: due later today;
/// - `dueThisWeek`: due from now through Sunday of this week (ISO weeks start
///   on Monday), today's included.
/// Days are the viewer's (the calculator's zone). A repeating task counts by its
/// next due date, so it is never overdue.
public struct TaskCounts: Sendable, Codable, Equatable {
    public var overdue: Int
    public var dueToday: Int
    public var dueThisWeek: Int
    /// Open tasks in all; not in the JSON (the three counts are the documented shape).
    public var open: Int

    enum CodingKeys: String, CodingKey { case overdue, dueToday, dueThisWeek }

    public init(overdue: Int = 0, dueToday: Int = 0, dueThisWeek: Int = 0, open: Int = 0) {
        self.overdue = overdue
        self.dueToday = dueToday
        self.dueThisWeek = dueThisWeek
        self.open = open
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(overdue: try container.decode(Int.self, forKey: .overdue), dueToday: try container.decode(Int.self, forKey: .dueToday),
                  dueThisWeek: try container.decode(Int.self, forKey: .dueThisWeek))
    }

    public var total: Int { open }

    public init(rows: [(Countdown, RemainingTime)], now: Date) {
        self.init()
        for (countdown, remaining) in rows {
            guard let due = Self.due(countdown, remaining, now: now) else { continue }
            open += 1
            switch due {
            case .overdue: overdue += 1
            case .today: dueToday += 1; dueThisWeek += 1
            case .thisWeek: dueThisWeek += 1
            case .later: break
            }
        }
    }

    public enum Due: String, Sendable { case overdue, today, thisWeek, later }

    /// Where one task stands, or nil when it is not an open task.
    public static func due(_ countdown: Countdown, _ remaining: RemainingTime, now: Date) -> Due? {
        guard countdown.kind == .task, countdown.status == .active else { return nil }
        if remaining.days < 0 { return .overdue }
        if let occurrence = remaining.occurrence, !occurrence.isAllDay, occurrence.startInstant < now { return .overdue }
        if remaining.days == 0 { return .today }
        // Days left until Sunday: weekday 0 is Sunday.
        let today = remaining.date.adding(days: -remaining.days)
        let toSunday = (7 - today.weekday) % 7
        return remaining.days <= toSunday ? .thisWeek : .later
    }
}
