/// Makes an embedded VTIMEZONE safe to hand to libical.
///
/// libical 3.0.16 expands a zone's STANDARD/DAYLIGHT RRULEs step by step up to
/// the year a conversion asks for. An observance rule more frequent than yearly
/// (the hostile corpus has `RRULE:FREQ=SECONDLY;COUNT=99999999`) turns one
/// offset lookup into minutes of work and hundreds of MB. Zone observances are
/// yearly by nature (every real zone, and RFC 5545 §3.6.5's examples), so any
/// other frequency is dropped: the observance then applies once, at its DTSTART.
enum ObservanceRepair {
    static func repaired(_ timeZone: Component) -> Component {
        var timeZone = timeZone
        timeZone.components = timeZone.components.map { observance in
            var observance = observance
            observance.properties.removeAll { property in
                property.name == "RRULE" && !isYearly(property.value)
            }
            return observance
        }
        return timeZone
    }

    static func isYearly(_ rule: String) -> Bool {
        rule.uppercased().split(separator: ";").contains { $0.trimmingCharacters(in: " \t") == "FREQ=YEARLY" }
    }
}
