import Foundation
import ICalendar

/// One stretch of focused time as the statistics count it, read from an
/// event of the person's focus feed: a study tminus kept (with its focused
/// seconds, pauses left out, and its phase) or a block imported from
/// elsewhere (a timed event with a category: all of it focused).
public struct FocusEntry: Sendable, Equatable {
    /// The property a kept block carries: its phase and focused seconds, "study;1500".
    public static let property = "X-TMINUS-FOCUS"
    /// An entry longer than a day is read as a day: a stray all-week event imported by mistake is not a week of focus.
    public static let longest = 86_400

    public var tag: String
    public var start: Date
    public var seconds: Int

    public init(tag: String, start: Date, seconds: Int) {
        self.tag = tag
        self.start = start
        self.seconds = min(max(0, seconds), Self.longest)
    }

    /// The countdown's focused time, or nil when it is no focused time: a
    /// break, an all-day or untagged event, a task, a cancelled event.
    public init?(_ countdown: Countdown, zone: Zone) {
        guard countdown.kind == .event, countdown.status != .cancelled, !countdown.isAllDay, let tag = countdown.categories.first else { return nil }
        let start = Self.instant(of: countdown.target, in: zone)
        if let mark = countdown.extraProperties.first(where: { $0.name == Self.property })?.value {
            let parts = mark.split(separator: ";")
            guard parts.first.map(String.init) == FocusPhase.study.rawValue, let seconds = parts.dropFirst().first.flatMap({ Int($0) }) else { return nil }
            self.init(tag: tag, start: start, seconds: seconds)
        } else {
            guard let end = countdown.end.map({ Self.instant(of: $0, in: zone) }) ?? countdown.duration.map({ start.addingTimeInterval(Double($0.seconds)) }) else { return nil }
            self.init(tag: tag, start: start, seconds: Int(max(0, min(end.timeIntervalSince(start), Double(Self.longest))).rounded()))
        }
    }

    /// The instant of a kept value: UTC as it says, a TZID in its zone, a floating time in the feed's.
    static func instant(of value: DateTimeValue, in zone: Zone) -> Date {
        switch value {
        case .utc: Zone.utc.instant(of: value.local)
        case .zoned(_, let tzid): (Zone.named(tzid) ?? zone).instant(of: value.local)
        default: zone.instant(of: value.local)
        }
    }
}
