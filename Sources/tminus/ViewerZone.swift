import Countdowns
import Foundation
import ICalendar

extension ViewerZone {
    /// The zone a command shows times in, the same rule everywhere (issue #40):
    /// `--tz`, else the zone of what is shown (the feed's, or the calendar's),
    /// else $TZ, else the system's zone, else UTC. An unknown `--tz` is a usage error.
    static func forCommand(_ requested: String?, else shownIn: String? = nil) throws -> Zone {
        do {
            return try resolve(requested, else: shownIn, environment: ProcessInfo.processInfo.environment, system: TimeZone.current.identifier)
        } catch {
            throw CLIError("--tz '\(requested ?? "")' is not a known time zone (use \(ViewerZone.Unknown.hint))", status: .usage)
        }
    }
}
