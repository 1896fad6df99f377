import ICalendar

/// The zone a viewer wants times shown in, read the same way by every front end
/// (`?tz=` on the server, `--tz` on the command line; issue #60: one home).
///
/// A name is checked for length and characters before any lookup, so that no
/// request can make the zone registry work hard; each front end turns `Unknown`
/// into its own error (a 400, a usage error) with `Unknown.hint`.
public enum ViewerZone {
    public static let maxLength = 64

    /// A name that is not a known zone, or not a plausible one.
    public struct Unknown: Error, CustomStringConvertible, Sendable {
        public let name: String
        /// How a name should look, for the message a front end writes around it.
        public static let hint = "an Olson name such as Europe/Berlin, at most \(ViewerZone.maxLength) characters"
        public var description: String { "'\(name)' is not a known time zone (\(Self.hint))" }
    }

    /// The zone `raw` names.
    public static func named(_ raw: String) throws(Unknown) -> Zone {
        let plausible = !raw.isEmpty && raw.utf8.count <= maxLength
            && raw.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/_-+ .".unicodeScalars.contains($0)) }
        guard plausible, let zone = Zone.named(raw) else { throw Unknown(name: raw) }
        return zone
    }

    /// The zone asked for, else `fallback`.
    public static func parse(_ raw: String?, default fallback: Zone) throws(Unknown) -> Zone {
        guard let raw else { return fallback }
        return try named(raw)
    }

    /// A person's own zone where nothing is asked for (the command line, issue #40):
    /// what was asked for, else the zone of what is shown (the feed's, the calendar's),
    /// else `$TZ` (a leading `:` dropped), else the system's, else UTC. Only an asked-for
    /// name that is unknown is an error; the others are tried in turn.
    public static func resolve(_ requested: String?, else shownIn: String? = nil,
                               environment: [String: String], system: String?) throws(Unknown) -> Zone {
        if let requested { return try named(requested) }
        let tz = environment["TZ"].map { $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }
        for case let name? in [shownIn, tz, system] { if let zone = try? named(name) { return zone } }
        return .utc
    }

    /// The zone a calendar is in: its X-WR-TIMEZONE (Google's), else its one
    /// VTIMEZONE when it has exactly one; nil when it does not say.
    public static func zone(of calendar: VCalendar) -> String? {
        if let named = calendar.defaultTimeZone, !named.isEmpty { return named }
        let defined = Set(calendar.timeZones.compactMap(\.tzid))
        return defined.count == 1 ? defined.first : nil
    }
}
