import CLibical
import Synchronization

/// The one way tminus reaches libical's builtin zones. libical 3.0.16 crashes
/// when several threads look up names outside zone.tab at once, so every lookup
/// happens under one lock and each result is cached for the life of the process.
public final class TimeZoneRegistry: Sendable {
    public static let shared = TimeZoneRegistry()

    private let cache = Mutex<[String: Zone?]>([:])
    fileprivate let compactCache = Mutex<[String: Component]>([:])
    private static let libicalPrefix = "/freeassociation.sourceforge.net/"

    /// A zone by Olson name, Windows name, or a libical/Mozilla-prefixed TZID; nil if unknown.
    public func zone(named raw: String) -> Zone? {
        let name = raw.trimmingCharacters(in: " \t\"")
        if let cached = cache.withLock({ $0[name] }) { return cached }
        let resolved = resolve(name)
        cache.withLock { $0[name] = resolved }
        return resolved
    }

    /// The canonical Olson name for a TZID, when tminus knows the zone.
    public func olsonName(for tzid: String) -> String? { zone(named: tzid)?.identifier }

    private func resolve(_ name: String) -> Zone? {
        if ["UTC", "GMT", "Z", "ETC/UTC", "ETC/GMT", "UNIVERSAL", "ZULU"].contains(name.uppercased()) { return .utc }
        for candidate in Self.candidates(for: name) {
            if let zone = builtin(candidate) { return zone }
        }
        if let olson = WindowsZones.olsonName(for: name) { return builtin(olson) }
        return nil
    }

    /// `Europe/Berlin`, then with any `/vendor/…/` prefix removed segment by segment.
    static func candidates(for name: String) -> [String] {
        var result = [name]
        if name.hasPrefix(libicalPrefix) { result.append(String(name.dropFirst(libicalPrefix.count))) }
        let segments = name.split(separator: "/")
        if segments.count > 2 {
            for drop in 1..<(segments.count - 1) { result.append(segments.dropFirst(drop).joined(separator: "/")) }
        }
        return result
    }

    private func builtin(_ name: String) -> Zone? {
        guard !name.isEmpty, name.count < 64 else { return nil }
        return cache.withLock { _ -> Zone? in   // the same lock: builtin lookups must not overlap
            LibicalRuntime.ensure()
            guard let pointer = icaltimezone_get_builtin_timezone(name) else { return nil }
            // The location, not the prefixed TZID, is the plain Olson name.
            let location = copyLibicalString(icaltimezone_get_location(pointer)).flatMap { $0.contains("/") || $0 == name ? $0 : nil } ?? name
            return Zone(identifier: location, pointer: pointer, owns: false)
        }
    }

    /// A zone from an embedded VTIMEZONE, owned by the caller's resolver.
    func zone(fromVTimeZoneText text: String, tzid: String) -> Zone? {
        LibicalRuntime.ensure()
        guard let component = icalcomponent_new_from_string(text) else { return nil }
        guard icalcomponent_isa(component) == ICAL_VTIMEZONE_COMPONENT, let zone = icaltimezone_new() else {
            icalcomponent_free(component)
            return nil
        }
        // icaltimezone_set_component takes ownership of the component.
        guard icaltimezone_set_component(zone, component) != 0 else {
            icaltimezone_free(zone, 1)
            return nil
        }
        return Zone(identifier: tzid, pointer: zone, owns: true)
    }
}

extension TimeZoneRegistry {
    /// A compact VTIMEZONE for a builtin zone, truncated to start in `fromYear`,
    /// with the plain Olson name as TZID.
    public func compactVTimeZone(named name: String, fromYear: Int) -> Component? {
        let key = "\(name)|\(fromYear)"
        if let cached = compactCache.withLock({ $0[key] }) { return cached }
        guard let zone = zone(named: name), !zone.isUTC else { return nil }
        let start = Zone.utc.instant(of: LocalDateTime(year: fromYear, month: 1, day: 1))
        guard let text = zone.libicalComponentText(truncatedFrom: start),
              var component = try? ComponentTreeBuilder.parseSingle(text) else { return nil }
        component.set("TZID", Property(name: "TZID", value: zone.identifier))
        compactCache.withLock { $0[key] = component }
        return component
    }
}
