/// RFC 5545 §3.3.6 DURATION. Days and weeks are nominal (they follow the wall
/// clock across DST), hours, minutes and seconds are exact; hence the split.
public struct ICalDuration: Sendable, Hashable, CustomStringConvertible {
    public var isNegative: Bool
    /// Nominal days (weeks are folded in as 7 days).
    public var days: Int
    /// Exact seconds.
    public var seconds: Int

    public init(days: Int = 0, seconds: Int = 0, isNegative: Bool = false) {
        self.days = days
        self.seconds = seconds
        self.isNegative = isNegative
    }

    public var signedDays: Int { isNegative ? -days : days }
    public var signedSeconds: Int { isNegative ? -seconds : seconds }
    public var isZero: Bool { days == 0 && seconds == 0 }

    /// Parses `P1W`, `-P2D`, `PT15M`, `P1DT12H` …
    public init?(parsing raw: some StringProtocol) {
        var text = Substring(raw.uppercased()).trimmingCharacters(in: " \t")[...]
        var negative = false
        if text.first == "+" || text.first == "-" { negative = text.first == "-"; text = text.dropFirst() }
        guard text.first == "P" else { return nil }
        text = text.dropFirst()
        var days = 0, seconds = 0, number = "", inTime = false, sawUnit = false
        for character in text {
            if character.isASCIIDigit { number.append(character); continue }
            if character == "T" { guard !inTime, number.isEmpty else { return nil }; inTime = true; continue }
            guard let value = Int(number), value < 100_000_000 else { return nil }
            number = ""
            sawUnit = true
            switch (character, inTime) {
            case ("W", false): days += value * 7
            case ("D", false): days += value
            case ("H", true): seconds += value * 3600
            case ("M", true): seconds += value * 60
            case ("S", true): seconds += value
            default: return nil
            }
        }
        guard number.isEmpty, sawUnit else { return nil }
        self.init(days: days, seconds: seconds, isNegative: negative)
    }

    public var description: String {
        var out = isNegative ? "-P" : "P"
        if days > 0, days % 7 == 0, seconds == 0 { return out + "\(days / 7)W" }
        if days > 0 { out += "\(days)D" }
        if seconds > 0 || days == 0 {
            out += "T"
            let h = seconds / 3600, m = seconds % 3600 / 60, s = seconds % 60
            if h > 0 { out += "\(h)H" }
            if m > 0 { out += "\(m)M" }
            if s > 0 || (h == 0 && m == 0) { out += "\(s)S" }
        }
        return out
    }
}
