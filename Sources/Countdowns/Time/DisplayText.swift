/// The words on a card: "33 days", "1 day", "Today", "3 months", "2y 1mo 4d".
public enum DisplayText {
    public static func render(state: RemainingTime.State, status: CountdownStatus, unit: DisplayUnit, amount: Int,
                              breakdown: Breakdown, timed: Bool, countingUp: Bool) -> String {
        switch status {
        case .cancelled: return "Cancelled"
        case .completed: return "Completed"
        case .active: break
        }
        if state == .running { return "Now" }
        if state == .today && !countingUp { return "Today" }
        let value = unit == .detailed ? detailed(breakdown, timed: timed) : quantity(amount, unit)
        return state == .past && !countingUp ? value + " ago" : value
    }

    /// "1 day", "2 days", "1 week", "12 working days" …
    public static func quantity(_ amount: Int, _ unit: DisplayUnit) -> String {
        let word: String = switch unit {
        case .weeks: "week"
        case .months: "month"
        case .years: "year"
        case .workdays: "working day"
        default: "day"
        }
        return "\(amount) \(word)\(amount == 1 ? "" : "s")"
    }

    /// "1y 2mo 3d 4h", leaving out zero parts; hours and minutes only for timed targets.
    public static func detailed(_ breakdown: Breakdown, timed: Bool) -> String {
        var parts: [String] = []
        if breakdown.years > 0 { parts.append("\(breakdown.years)y") }
        if breakdown.months > 0 { parts.append("\(breakdown.months)mo") }
        if breakdown.days > 0 { parts.append("\(breakdown.days)d") }
        if timed, breakdown.hours > 0 { parts.append("\(breakdown.hours)h") }
        if timed, breakdown.minutes > 0, breakdown.years == 0, breakdown.months == 0 { parts.append("\(breakdown.minutes)m") }
        return parts.isEmpty ? (timed ? "0m" : "0d") : parts.joined(separator: " ")
    }
}
