import Foundation
import ICalendar

/// The viewer's zone for a command: `--tz`, else $TZ, else the system's zone, else UTC.
enum ViewerZone {
    static func resolve(_ requested: String?) throws -> Zone {
        if let requested {
            guard let zone = Zone.named(requested) else { throw CLIError("--tz '\(requested)' is not a known time zone (use an Olson name like Europe/London)", status: .usage) }
            return zone
        }
        let candidates = [ProcessInfo.processInfo.environment["TZ"].map { $0.hasPrefix(":") ? String($0.dropFirst()) : $0 },
                          TimeZone.current.identifier]
        for case let name? in candidates { if let zone = Zone.named(name) { return zone } }
        return .utc
    }
}
