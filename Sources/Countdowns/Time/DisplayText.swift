/// The words on a card: "33 days", "1 day", "Today", "3 months", "2y 1mo 4d",
/// in the viewer's language ("33 Tage", "33 дня", "33日").
public enum DisplayText {
    public static func render(state: RemainingTime.State, status: CountdownStatus, unit: DisplayUnit, amount: Int,
                              breakdown: Breakdown, timed: Bool, countingUp: Bool, language: Language = .english) -> String {
        switch status {
        case .cancelled: return language.cancelled
        case .completed: return language.completed
        case .active: break
        }
        if state == .running { return language.now }
        if state == .today && !countingUp { return language.today }
        let value = unit == .detailed ? detailed(breakdown, timed: timed, language: language) : language.quantity(amount, unit)
        return state == .past && !countingUp ? language.ago(value) : value
    }

    /// "1 day", "2 days", "1 week", "12 working days" …, by the language's plural rules.
    public static func quantity(_ amount: Int, _ unit: DisplayUnit, language: Language = .english) -> String {
        language.quantity(amount, unit)
    }

    /// "1y 2mo 3d 4h", leaving out zero parts; hours and minutes only for timed targets.
    public static func detailed(_ breakdown: Breakdown, timed: Bool, language: Language = .english) -> String {
        var parts: [String] = []
        if breakdown.years > 0 { parts.append(language.detailedPart(breakdown.years, "years")) }
        if breakdown.months > 0 { parts.append(language.detailedPart(breakdown.months, "months")) }
        if breakdown.days > 0 { parts.append(language.detailedPart(breakdown.days, "days")) }
        if timed, breakdown.hours > 0 { parts.append(language.detailedPart(breakdown.hours, "hours")) }
        if timed, breakdown.minutes > 0, breakdown.years == 0, breakdown.months == 0 { parts.append(language.detailedPart(breakdown.minutes, "minutes")) }
        return parts.isEmpty ? language.detailedPart(0, timed ? "minutes" : "days") : parts.joined(separator: " ")
    }
}
