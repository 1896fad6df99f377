import ICalendar

/// A UID for items that came without one: derived from their content, so that
/// re-importing the same file finds the same countdown instead of a new one.
public enum StableUID {
    public static func derive(from component: Component) -> String {
        let key = ["SUMMARY", "DTSTART", "DUE", "RRULE"].map { component.first($0)?.value ?? "" }.joined(separator: "\u{1F}")
        return "tminus-\(StableHash.hex(key))@derived"
    }

    /// A fresh UID for a countdown added by hand.
    public static func generate<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let high = generator.next(), low = generator.next()
        return "tminus-" + String(high, radix: 16) + String(low, radix: 16) + "@tminus"
    }
}
