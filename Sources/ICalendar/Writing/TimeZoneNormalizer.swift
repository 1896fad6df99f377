/// Makes a calendar's time zones interoperable before it is written: TZIDs become
/// plain Olson names (Windows and libical-prefixed names included), UTC-like TZIDs
/// become `…Z` values, and each zone used gets one compact VTIMEZONE, starting in
/// the first year the calendar uses it. Zones tminus does not know keep their own
/// embedded definition.
struct TimeZoneNormalizer {
    let registry = TimeZoneRegistry.shared

    func normalize(_ calendar: VCalendar) -> VCalendar {
        var calendar = calendar
        var firstYear: [String: Int] = [:]
        var unknown = Set<String>()
        let rewrite = { (property: inout Property) in
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
        calendar.events = calendar.events.map { VEvent(component: rewriteAll($0.component, rewrite)) }
        calendar.todos = calendar.todos.map { VTodo(component: rewriteAll($0.component, rewrite)) }
        calendar.otherComponents = calendar.otherComponents.map { rewriteAll($0, rewrite) }

        var zones: [VTimeZone] = []
        for name in firstYear.keys.sorted() {
            if let component = registry.compactVTimeZone(named: name, fromYear: max(1970, firstYear[name]!)) {
                zones.append(VTimeZone(component: component))
            }
        }
        zones += calendar.timeZones.filter { $0.tzid.map(unknown.contains) ?? false }
        calendar.timeZones = zones
        return calendar
    }

    private func rewriteAll(_ component: Component, _ rewrite: (inout Property) -> Void) -> Component {
        var component = component
        for index in component.properties.indices { rewrite(&component.properties[index]) }
        component.components = component.components.map { rewriteAll($0, rewrite) }
        return component
    }
}
