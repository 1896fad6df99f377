import Foundation
import ICalendar

/// The zone a command shows times in, the same rule everywhere (issue #40):
/// `--tz`, else the zone of what is shown (the feed's, or the calendar's),
/// else $TZ, else the system's zone, else UTC.
enum ViewerZone {
    static func resolve(_ requested: String?, else shownIn: String? = nil) throws -> Zone {
        if let requested {
            guard let zone = Zone.named(requested) else { throw CLIError("--tz '\(requested)' is not a known time zone (use an Olson name like Europe/London)", status: .usage) }
            return zone
        }
        let candidates = [shownIn, ProcessInfo.processInfo.environment["TZ"].map { $0.hasPrefix(":") ? String($0.dropFirst()) : $0 },
                          TimeZone.current.identifier]
        for case let name? in candidates { if let zone = Zone.named(name) { return zone } }
        return .utc
    }

    /// The zone a calendar is in: its X-WR-TIMEZONE (Google's), else its one
    /// VTIMEZONE when it has exactly one; nil when it does not say.
    static func zone(of calendar: VCalendar) -> String? {
        if let named = calendar.defaultTimeZone, !named.isEmpty { return named }
        let defined = Set(calendar.timeZones.compactMap(\.tzid))
        return defined.count == 1 ? defined.first : nil
    }
}
