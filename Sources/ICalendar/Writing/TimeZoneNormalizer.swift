/// Makes a calendar's time zones interoperable before it is written: TZIDs become
/// plain Olson names (Windows and libical-prefixed names included), UTC-like TZIDs
/// become `…Z` values, and each zone used gets one compact VTIMEZONE, starting in
/// the first year the calendar uses it. Zones tminus does not know keep their own
/// embedded definition.
struct TimeZoneNormalizer {
    /// The zones a calendar's components use, gathered while their TZIDs are
    /// rewritten: one at a time (`CalendarStreamWriter`) or all at once (`normalize`).
    struct Usage {
        let registry = TimeZoneRegistry.shared
        private var firstYear: [String: Int] = [:]
        private var unknown = Set<String>()

        mutating func rewrite(_ property: inout Property) {
            guard let tzid = property.parameter("TZID") else { return }
            guard let zone = registry.zone(named: tzid) else { unknown.insert(tzid); return }
            if zone.isUTC {
                property.setParameter("TZID", nil)
                property.value = property.value.split(separator: ",").map { $0.count == 15 ? $0 + "Z" : String($0) }.joined(separator: ",")
                return
            }
            property.setParameter("TZID", zone.identifier)
            let year = property.value.split(separator: ",").compactMap { Int($0.prefix(4)) }.min() ?? 1970
            firstYear[zone.identifier] = min(firstYear[zone.identifier] ?? year, year)
        }

        mutating func rewriteAll(_ component: Component) -> Component {
            var component = component
            for index in component.properties.indices { rewrite(&component.properties[index]) }
            component.components = component.components.map { rewriteAll($0) }
            return component
        }

        /// One compact VTIMEZONE per known zone used, by name, then the
        /// `embedded` definitions of the zones the database does not know.
        func timeZones(keeping embedded: [VTimeZone]) -> [VTimeZone] {
            var zones: [VTimeZone] = []
            for name in firstYear.keys.sorted() {
                if let component = registry.compactVTimeZone(named: name, fromYear: max(1970, firstYear[name]!)) {
                    zones.append(VTimeZone(component: component))
                }
            }
            return zones + embedded.filter { $0.tzid.map(unknown.contains) ?? false }
        }
    }

    func normalize(_ calendar: VCalendar) -> VCalendar {
        var calendar = calendar
        var usage = Usage()
        calendar.events = calendar.events.map { VEvent(component: usage.rewriteAll($0.component)) }
        calendar.todos = calendar.todos.map { VTodo(component: usage.rewriteAll($0.component)) }
        calendar.otherComponents = calendar.otherComponents.map { usage.rewriteAll($0) }
        calendar.timeZones = usage.timeZones(keeping: calendar.timeZones)
        return calendar
    }
}
