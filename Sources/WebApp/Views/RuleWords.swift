import Countdowns
import Foundation
import ICalendar
import Pages

/// A written rule (an imported RRULE) in the page's language: "every
/// Wednesday until 16 June 2027", not `FREQ=WEEKLY;BYDAY=WE;UNTIL=…` (issue
/// #40). It covers the rules people have: daily, weekly and monthly with
/// BYDAY (weekdays, "2nd Tuesday", "last Friday"), intervals, UNTIL and COUNT,
/// BYSETPOS over a list of days, yearly on a day of a month or a weekday of
/// it, the last day of the month. Any other rule gives nil, and the page
/// shows the rule as written: a wrong sentence would be worse than the rule.
package enum RuleWords {
    /// The parts this reader puts in words; a rule with any other part is shown as written.
    static let described: Set<String> = ["FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY", "BYMONTHDAY", "BYMONTH", "BYSETPOS", "WKST"]

    package static func text(_ rule: RecurrenceRule, _ words: WebWords) -> String? {
        guard rule.parts.allSatisfy({ described.contains($0.key) }), let core = core(rule, words) else { return nil }
        if let count = rule.count { return words["rule.count", ["rule": core, "times": words.language.times(count)]] }
        if let until = rule.until { return words["rule.until", ["rule": core, "date": AppDates.day(until.civilDate, in: words.language)]] }
        return core
    }

    /// What the form shows beside a custom rule as it is typed: its words in
    /// the page's language where they cover it, else the English reading that
    /// names every part and says why a rule is invalid (`RuleReading`).
    package static func reading(_ text: String, startingOn start: CivilDate, _ words: WebWords) -> String {
        if let rule = try? RecurrenceRule(parsing: text), let said = self.text(rule, words) { return Language.capitalized(said) }
        return RuleReading.describe(text, startingOn: start)
    }

    /// The text of a rule as the app writes it (`RuleWords`), else the rule itself.
    package static func text(written: String, _ words: WebWords) -> String {
        (try? RecurrenceRule(parsing: written, lenient: true)).flatMap { text($0, words) } ?? written
    }

    private static func core(_ rule: RecurrenceRule, _ words: WebWords) -> String? {
        let language = words.language
        let days = rule.list("BYDAY")
        let plain = days.compactMap(Weekday.init(code:))
        let allPlain = plain.count == days.count
        let monthDays = rule.integers("BYMONTHDAY")
        let months = rule.integers("BYMONTH")
        let positions = rule.integers("BYSETPOS")
        guard rule.list("BYMONTHDAY").count == monthDays.count, rule.list("BYMONTH").count == months.count,
              rule.list("BYSETPOS").count == positions.count, positions.count <= 1 else { return nil }
        let n = rule.interval
        func amount(_ unit: DisplayUnit) -> String { language.quantity(n, unit) }
        func every(_ unit: DisplayUnit, _ key: String) -> String { n == 1 ? words[key] : words["rule.every", ["amount": amount(unit)]] }

        switch rule.frequency {
        case .daily:
            guard monthDays.isEmpty, months.isEmpty, positions.isEmpty else { return nil }
            if days.isEmpty { return every(.days, "repeat.daily") }
            guard allPlain, n == 1 else { return nil }
            return onDays(plain, words)
        case .weekly:
            guard monthDays.isEmpty, months.isEmpty, positions.isEmpty else { return nil }
            if days.isEmpty { return every(.weeks, "repeat.weekly") }
            guard allPlain else { return nil }
            if n == 1 { return onDays(plain, words) }
            return words["rule.everyOn", ["amount": amount(.weeks), "days": list(plain.map { name($0, language) }, words)]]
        case .monthly:
            guard months.isEmpty else { return nil }
            if days.isEmpty, positions.isEmpty {
                if monthDays.isEmpty { return every(.months, "repeat.monthly") }
                if monthDays == [-1], n == 1 { return words["repeat.lastday"] }
                guard monthDays.allSatisfy({ (1...31).contains($0) }) else { return nil }
                let joined = list(monthDays.map(String.init), words)
                return n == 1 ? words["rule.monthlyDay", ["day": joined]] : words["rule.everyDay", ["amount": amount(.months), "day": joined]]
            }
            guard monthDays.isEmpty else { return nil }
            if let position = positions.first {
                guard allPlain, n == 1, let ordinal = ordinal(position, words) else { return nil }
                return words["rule.setpos", ["ordinal": ordinal, "days": list(plain.map { name($0, language) }, words)]]
            }
            guard days.count == 1, let (position, weekday) = nth(days[0]), let ordinal = ordinal(position, words) else { return nil }
            let values = ["ordinal": ordinal, "weekday": name(weekday, language)]
            return n == 1 ? words["repeat.nthOf", values] : words["rule.everyNth", values.merging(["amount": amount(.months)]) { $1 }]
        case .yearly:
            guard n == 1, positions.isEmpty, months.count <= 1 else { return nil }
            guard let month = months.first else {
                return days.isEmpty && monthDays.isEmpty ? words["repeat.yearly"] : nil
            }
            guard (1...12).contains(month) else { return nil }
            if days.isEmpty {
                if monthDays.isEmpty { return words["rule.yearlyIn", ["month": AppDates.monthName(month, in: language)]] }
                guard monthDays.count == 1, (1...31).contains(monthDays[0]) else { return nil }
                return words["rule.yearlyOn", ["date": AppDates.dayOfMonth(monthDays[0], month: month, in: language)]]
            }
            guard monthDays.isEmpty, days.count == 1, let (position, weekday) = nth(days[0]), let ordinal = ordinal(position, words) else { return nil }
            return words["rule.yearlyNth", ["ordinal": ordinal, "weekday": name(weekday, language), "month": AppDates.monthName(month, in: language)]]
        default:
            return nil
        }
    }

    /// "every Wednesday", "every Monday and Friday", "every weekday (Monday to Friday)".
    private static func onDays(_ days: [Weekday], _ words: WebWords) -> String {
        if Set(days) == [.monday, .tuesday, .wednesday, .thursday, .friday] { return words["rule.workdays"] }
        return words["rule.weeklyOn", ["days": list(sorted(days).map { name($0, words.language) }, words)]]
    }

    /// Monday first, as people list a week.
    private static func sorted(_ days: [Weekday]) -> [Weekday] { days.sorted { ($0.rawValue + 6) % 7 < ($1.rawValue + 6) % 7 } }

    /// "a, b and c" in the page's language.
    private static func list(_ items: [String], _ words: WebWords) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        let separator = words.language.code == "ja" || words.language.code == "zh-Hans" ? "、" : words.language.code == "ar" ? "، " : ", "
        return words["rule.and", ["rest": items.dropLast().joined(separator: separator), "last": last]]
    }

    /// `2TU` → (2, Tuesday); `-1FR` → (-1, Friday); nil for a plain weekday.
    private static func nth(_ item: String) -> (Int, Weekday)? {
        guard item.count > 2, let weekday = Weekday(code: String(item.suffix(2))), let number = Int(item.dropLast(2)) else { return nil }
        return (number, weekday)
    }

    /// first to fourth, and last: the ordinals the app's words have.
    private static func ordinal(_ position: Int, _ words: WebWords) -> String? {
        position == -1 ? words["ordinal.last"] : (1...4).contains(position) ? words["ordinal.\(position)"] : nil
    }

    private static func name(_ day: Weekday, _ language: Language) -> String { AppDates.weekdayNames(in: language)[day.rawValue] }
}
