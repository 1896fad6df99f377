import ICalendar

/// Reads the repeat presets people type: "yearly", "every 2 weeks",
/// "last friday", "2nd tuesday", "last day", "none".
public enum RepeatPhrase {
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public var phrase: String
        public var description: String {
            "'\(phrase)' is not a repeat: use none, daily, weekly, monthly, yearly, 'every N days|weeks|months|years', "
                + "'last friday', '2nd tuesday', 'last day', or 'yearly chinese' (hebrew, islamic, or another RSCALE calendar)"
        }
    }

    public static func parse(_ phrase: String, clamp: Bool = false) throws(Invalid) -> Repeat {
        let words = phrase.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" }).map(String.init)
        func unit(_ word: String) -> Repeat.Unit? {
            switch word {
            case "day", "days", "daily": .day
            case "week", "weeks", "weekly": .week
            case "month", "months", "monthly": .month
            case "year", "years", "yearly", "annually": .year
            default: nil
            }
        }
        switch words.count {
        case 1 where words[0] == "none" || words[0] == "never": return .none
        case 1: if let unit = unit(words[0]) { return .every(interval: 1, unit: unit, clamp: clamp) }
        case 3 where words[0] == "every":
            if let count = Int(words[1]), count > 0, count <= 1000, let unit = unit(words[2]) {
                return .every(interval: count, unit: unit, clamp: clamp)
            }
        case 2 where words[1] == "day" && words[0] == "last": return .lastDayOfMonth(interval: 1)
        case 2 where unit(words[0]) == .year:
            if let calendar = calendar(words[1]) { return .calendarYearly(calendar) }
        case 2:
            if let ordinal = ordinal(words[0]), let weekday = weekday(words[1]) {
                return .nthWeekday(ordinal: ordinal, weekday: weekday, interval: 1)
            }
        default: break
        }
        throw Invalid(phrase: phrase)
    }

    /// "chinese", "hebrew", "islamic" (the arithmetic Islamic calendar, ISLAMIC-CIVIL), or any RSCALE name.
    static func calendar(_ word: String) -> RscaleCalendar? {
        guard word != "gregorian" else { return nil }
        return RscaleCalendar(named: word == "islamic" ? "ISLAMIC-CIVIL" : word)
    }

    static func ordinal(_ word: String) -> Int? {
        ["first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5, "last": -1][word]
    }

    static func weekday(_ word: String) -> Weekday? {
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        guard let index = names.firstIndex(where: { $0 == word || $0.prefix(3) == word }) else { return nil }
        return Weekday(rawValue: index)
    }

    /// The phrase for a preset, for lists and JSON ("every 2 weeks", "last Friday").
    public static func describe(_ rule: Repeat) -> String {
        switch rule {
        case .none: return "none"
        case .every(1, let unit, let clamp): return ["day": "daily", "week": "weekly", "month": "monthly", "year": "yearly"][unit.rawValue]! + (clamp ? " (clamped)" : "")
        case .every(let n, let unit, let clamp): return "every \(n) \(unit.rawValue)s" + (clamp ? " (clamped)" : "")
        case .nthWeekday(let ordinal, let weekday, _):
            let name = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][weekday.rawValue]
            return (ordinal == -1 ? "last" : Ordinal.english(ordinal)) + " " + name
        case .lastDayOfMonth: return "last day of the month"
        case .calendarYearly(let calendar): return "yearly " + (calendar.name == "ISLAMIC-CIVIL" ? "islamic" : calendar.name.lowercased())
        case .rule(let text): return text
        }
    }
}
