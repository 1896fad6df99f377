import Foundation
import ICalendar

/// The rules for a feed's settings, in one place for every way a feed is
/// defined (feeds/*.yaml and the admin API). Messages name the setting's value.
extension Feed {
    public struct InvalidSetting: Error, Sendable, Equatable, CustomStringConvertible {
        /// English, as the API, the feed files' errors and the command line print it.
        public var message: String
        /// What is wrong, typed, so that the web app can say it in the page's language.
        public var reason: Reason
        public var description: String { message }

        /// A reason only `message` names (shown as written).
        public init(message: String) {
            self.message = message
            reason = .other
        }

        init(_ reason: Reason, message: String) {
            self.message = message
            self.reason = reason
        }

        /// Two refusals are the same when they say the same: the reason only types what the message says.
        public static func == (lhs: InvalidSetting, rhs: InvalidSetting) -> Bool { lhs.message == rhs.message }

        /// The settings a person types in the web app's feed form; the values as typed.
        public enum Reason: Sendable, Equatable {
            case unknownZone(String)
            case notAColor(String)
            case maxEventsRange(Int)
            case daysRange(Int)
            case milestonesRange
            case holidays(String)
            case celebrateRange
            case categoryName
            case other
        }
    }

    /// An Olson name (Windows and prefixed names are accepted and normalised).
    public static func validTimeZone(_ raw: String) throws(InvalidSetting) -> String {
        guard let zone = Zone.named(raw) else {
            throw InvalidSetting(.unknownZone(raw), message: "time zone '\(raw)' is not a known zone (use an Olson name such as Europe/London)")
        }
        return zone.identifier
    }

    public static func validColor(_ raw: String) throws(InvalidSetting) -> String {
        guard let hex = Presentation.normalizeHex(raw) else { throw InvalidSetting(.notAColor(raw), message: "color '\(raw)' is not #RRGGBB") }
        return hex
    }

    /// A positive ISO 8601 duration of at least `minimumSeconds`.
    public static func validInterval(_ raw: String, minimumSeconds: Int = 1) throws(InvalidSetting) -> ICalDuration {
        guard let duration = ICalDuration(parsing: raw), !duration.isNegative, duration.days * 86_400 + duration.seconds >= minimumSeconds else {
            throw InvalidSetting(message: "'\(raw)' is not a duration of at least \(minimumSeconds) second(s), such as PT6H")
        }
        return duration
    }

    /// An http(s) URL of at most 2,000 characters; empty clears it.
    public static func validPurgeURL(_ raw: String) throws(InvalidSetting) -> String? {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return nil }
        let lower = trimmed.lowercased()
        guard trimmed.utf8.count <= 2000, lower.hasPrefix("https://") || lower.hasPrefix("http://"),
              trimmed.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw InvalidSetting(message: "purge '\(trimmed.prefix(80))' is not an http(s) URL")
        }
        return trimmed
    }

    /// 1…100,000 events in the countdown calendar.
    public static func validMaxEvents(_ raw: Int?) throws(InvalidSetting) -> Int {
        let value = raw ?? CountdownCalendar.defaultMaxEvents
        guard (1...100_000).contains(value) else { throw InvalidSetting(.maxEventsRange(value), message: "countdown maxEvents must be 1 to 100000, not \(value)") }
        return value
    }

    /// `daily` with 1…366 days (default 60), or `milestones` of 0…3650 days.
    public static func validCountdownMode(_ mode: String?, days: Int?, milestones: [Int]?) throws(InvalidSetting) -> CountdownMode {
        switch mode ?? "daily" {
        case "daily":
            let days = days ?? 60
            guard (1...366).contains(days) else { throw InvalidSetting(.daysRange(days), message: "countdown days must be 1 to 366, not \(days)") }
            return .daily(days: days)
        case "milestones":
            let marks = milestones ?? CountdownMode.defaultMilestones
            guard !marks.isEmpty, marks.allSatisfy({ (0...3650).contains($0) }) else {
                throw InvalidSetting(.milestonesRange, message: "countdown milestones must be days from 0 to 3650")
            }
            return .milestones(marks)
        case let other:
            throw InvalidSetting(message: "countdown mode '\(other)' must be daily or milestones")
        }
    }
}
