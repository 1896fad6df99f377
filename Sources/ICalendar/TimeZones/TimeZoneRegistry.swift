import CLibical
import Synchronization

/// The one way tminus reaches libical's builtin zones. libical 3.0.16 crashes
/// when several threads look up names outside zone.tab at once, so every libical
/// lookup happens under one lock (`libical`). Results are cached: zones found
/// for the life of the process, names not found in a bounded set, so random
/// names (a `?tz=` per request, say) cannot grow memory. A cache hit holds the
/// cache's lock only for the dictionary read.
public final class TimeZoneRegistry: Sendable {
    public static let shared = TimeZoneRegistry()

    private let cache = Mutex<(found: [String: Zone], unknown: Set<String>)>(([:], []))
    private let libical = Mutex<Void>(())
    fileprivate let compactCache = Mutex<[String: Component]>([:])
    private static let libicalPrefix = "/freeassociation.sourceforge.net/"
    /// Longest name looked up at all: Olson names stay under 40 characters,
    /// Windows display names under 100, vendor-prefixed TZIDs under 80.
    static let maxNameLength = 128
    /// Unknown names remembered before the set starts over.
    static let maxUnknown = 1_024

    /// A zone by Olson name, Windows name, or a libical/Mozilla-prefixed TZID; nil if unknown.
    public func zone(named raw: String) -> Zone? {
        guard raw.utf8.count <= Self.maxNameLength * 2 else { return nil }
        // Trimmed only when there is something to trim: every occurrence of a zoned series asks for its
        // zone by name, and trimming each time was a twentieth of a large feed's first page.
        let padded = { (byte: UInt8?) in byte.map { $0 == 0x20 || $0 == 0x09 || $0 == 0x22 } ?? true }
        let name = padded(raw.utf8.first) || padded(raw.utf8.last) ? raw.trimmingCharacters(in: " \t\"") : raw
        guard !name.isEmpty, name.utf8.count <= Self.maxNameLength else { return nil }
        let known: Zone?? = cache.withLock { cache in
            if let zone = cache.found[name] { return .some(zone) }
            return cache.unknown.contains(name) ? .some(nil) : nil
        }
        if let known { return known }
        let resolved = resolve(name)
        cache.withLock { cache in
            if let resolved { cache.found[name] = resolved; return }
            if cache.unknown.count >= Self.maxUnknown { cache.unknown.removeAll(keepingCapacity: true) }
            cache.unknown.insert(name)
        }
        return resolved
    }

    /// How many unknown names are remembered (tests check the bound).
    var unknownCount: Int { cache.withLock { $0.unknown.count } }

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

    /// `Europe/Berlin`, then with any `/vendor/…/` prefix removed. Olson names
    /// have at most three segments, so only the last two and three are tried:
    /// trying every suffix made a name of N slashes cost N² (a 32 KB `?tz=`
    /// took 11 s).
    static func candidates(for name: String) -> [String] {
        var result = [name]
        if name.hasPrefix(libicalPrefix) { result.append(String(name.dropFirst(libicalPrefix.count))) }
        let segments = name.split(separator: "/")
        if segments.count > 2 {
            for kept in [3, 2] where kept < segments.count { result.append(segments.suffix(kept).joined(separator: "/")) }
        }
        return result
    }

    private func builtin(_ name: String) -> Zone? {
        guard !name.isEmpty, name.count < 64 else { return nil }
        return libical.withLock { _ -> Zone? in   // builtin lookups must not overlap
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
        // icaltimezone_set_component takes ownership of the component only when
        // it succeeds: it refuses one without a TZID libical can read (an empty
        // or unparsable value) and then leaves the component to the caller.
        // Freeing only the zone leaked the whole tree (fuzz finding
        // `vtimezone-without-readable-tzid.ics`).
        guard icaltimezone_set_component(zone, component) != 0 else {
            icaltimezone_free(zone, 1)
            icalcomponent_free(component)
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
