import CLibical
import Foundation
import Synchronization

/// A time zone tminus can compute with: a libical builtin zone, a zone built
/// from an embedded VTIMEZONE, or UTC. libical fills a zone's change table
/// lazily, so every call into one zone holds that zone's lock.
public final class Zone: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The plain name: an Olson name for builtin zones, the TZID for embedded ones.
    public let identifier: String
    private let pointer: OpaquePointer?   // nil means UTC
    private let ownsPointer: Bool
    private let lock = Mutex(())

    public static let utc = Zone(identifier: "UTC", pointer: nil, owns: false)

    init(identifier: String, pointer: OpaquePointer?, owns: Bool) {
        self.identifier = identifier
        self.pointer = pointer
        self.ownsPointer = owns
    }

    deinit {
        if ownsPointer, let pointer { icaltimezone_free(pointer, 1) }
    }

    public var isUTC: Bool { pointer == nil }
    public var description: String { identifier }

    /// A builtin zone by Olson or Windows name (see `TimeZoneRegistry`).
    public static func named(_ name: String) -> Zone? { TimeZoneRegistry.shared.zone(named: name) }

    /// Offset from UTC in seconds for a wall time in this zone, following RFC 5545
    /// §3.3.5: a wall time that occurs twice means the first one; a wall time in a
    /// DST gap takes the offset from before the gap.
    public func utcOffset(forLocal local: LocalDateTime) -> Int {
        guard pointer != nil else { return 0 }
        if let covered = Self.coveredSeconds(local.wallSeconds) {
            return utcOffset(forLocal: LocalDateTime(wallSeconds: covered))
        }
        return offsetInCoveredYears(forLocal: local)
    }

    /// libical walks a zone's change table from the zone's first rule, and grows it
    /// up to the year asked for: a fuzzed calendar whose all-day yearly event began
    /// in the year 1000, read in Europe/London, took 13 ms a lookup and 26 s in all.
    /// So lookups stay within 1800–2400: before 1800 no zone changed its offset
    /// (every one was on local mean time), so 1800's offset stands for all earlier
    /// times; after 2400 the Gregorian calendar repeats every 400 years to the
    /// weekday, so a time 400·k years earlier has the same rule-based offset.
    /// The time to look up instead of `seconds`, or nil when it is covered already.
    static func coveredSeconds(_ seconds: Int64) -> Int64? {
        if seconds < earliestLookup { return earliestLookup }
        if seconds >= latestLookup { return seconds - ((seconds - latestLookup) / gregorianCycle + 1) * gregorianCycle }
        return nil
    }
    /// 1800-01-01T00:00, 2400-01-01T00:00 and 400 Gregorian years, in seconds.
    static let earliestLookup: Int64 = -5_364_662_400, latestLookup: Int64 = 13_569_465_600
    static let gregorianCycle: Int64 = 146_097 * 86_400

    private func offsetInCoveredYears(forLocal local: LocalDateTime) -> Int {
        guard let pointer else { return 0 }
        var time = local.icalTime(isDate: false)
        var isDaylight: Int32 = 0
        let guess = lock.withLock { _ in Int(icaltimezone_get_utc_offset(pointer, &time, &isDaylight)) }
        let wall = local.wallSeconds
        let probe = wall - Int64(guess)
        let around = [guess, utcOffset(forUTC: probe - 21_600), utcOffset(forUTC: probe + 21_600)]
        let consistent = around.filter { utcOffset(forUTC: wall - Int64($0)) == $0 }
        if let earliest = consistent.max() { return earliest }   // larger offset = earlier instant
        return utcOffset(forUTC: probe - 21_600)                 // in a gap
    }

    public func utcOffset(forUTC seconds: Int64) -> Int {
        guard let pointer else { return 0 }
        if let covered = Self.coveredSeconds(seconds) { return utcOffset(forUTC: covered) }
        var time = LocalDateTime(wallSeconds: seconds).icalTime(isDate: false)
        var isDaylight: Int32 = 0
        return lock.withLock { _ in Int(icaltimezone_get_utc_offset_of_utc_time(pointer, &time, &isDaylight)) }
    }

    /// The instant a wall time in this zone denotes.
    public func instant(of local: LocalDateTime) -> Date {
        Date(timeIntervalSince1970: TimeInterval(local.wallSeconds - Int64(utcOffset(forLocal: local))))
    }

    /// The wall time this zone shows at an instant.
    public func local(of instant: Date) -> LocalDateTime {
        let seconds = Int64(instant.timeIntervalSince1970.rounded(.down))
        return LocalDateTime(wallSeconds: seconds + Int64(utcOffset(forUTC: seconds)))
    }

    /// The zone's VTIMEZONE as libical builds it, or nil for UTC.
    func libicalComponentText(truncatedFrom start: Date?) -> String? {
        guard let pointer else { return nil }
        return lock.withLock { _ -> String? in
            guard let original = icaltimezone_get_component(pointer),
                  let clone = icalcomponent_new_clone(original) else { return nil }
            defer { icalcomponent_free(clone) }
            if let start {
                let utc = LocalDateTime(wallSeconds: Int64(start.timeIntervalSince1970))
                var from = utc.icalTime(isDate: false)
                from.zone = icaltimezone_get_utc_timezone()
                icaltimezone_truncate_vtimezone(clone, from, icaltime_null_time(), 0)
            }
            return takeLibicalString(icalcomponent_as_ical_string_r(clone))
        }
    }

    public static func == (lhs: Zone, rhs: Zone) -> Bool { lhs === rhs || lhs.identifier == rhs.identifier && lhs.isUTC == rhs.isUTC }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}
