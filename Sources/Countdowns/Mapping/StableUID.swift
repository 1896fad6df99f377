import ICalendar

/// A UID for items that came without one: derived from their content, so that
/// re-importing the same file finds the same countdown instead of a new one.
public enum StableUID {
    public static func derive(from component: Component) -> String {
        let key = ["SUMMARY", "DTSTART", "DUE", "RRULE"].map { component.first($0)?.value ?? "" }.joined(separator: "\u{1F}")
        return "tminus-\(fnv1a(key))@derived"
    }

    /// A fresh UID for a countdown added by hand.
    public static func generate<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let high = generator.next(), low = generator.next()
        return "tminus-" + String(high, radix: 16) + String(low, radix: 16) + "@tminus"
    }

    /// FNV-1a 64-bit, hex: tiny, stable across runs and platforms (unlike Hasher).
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
