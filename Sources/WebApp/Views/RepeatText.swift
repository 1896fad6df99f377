import Countdowns
import Pages

/// How the app names a countdown's repeat in the page's language ("alle 2
/// Wochen", "毎月最終金曜日"). `RepeatPhrase.describe` stays the English phrase
/// that forms, JSON and the command line read and write; a written rule
/// (RRULE) is put in words by `RuleWords` where it can be, else shown as written.
package enum RepeatText {
    package static func text(_ rule: Repeat, _ words: WebWords) -> String {
        switch rule {
        case .none:
            return words["repeat.none"]
        case .every(1, let unit, _):
            return words["repeat.\(["day": "daily", "week": "weekly", "month": "monthly", "year": "yearly"][unit.rawValue]!)"]
        case .every(let n, let unit, _):
            return words["repeat.everyN", ["n": String(n), "unit": words["every.\(unit.rawValue)s"]]]
        case .nthWeekday(let ordinal, let weekday, _):
            let which = ordinal == -1 ? words["ordinal.last"] : (1...4).contains(ordinal) ? words["ordinal.\(ordinal)"] : "\(ordinal)."
            return words["repeat.nthOf", ["ordinal": which, "weekday": AppDates.weekdayNames(in: words.language)[weekday.rawValue]]]
        case .lastDayOfMonth:
            return words["repeat.lastday"]
        case .calendarYearly(let calendar):
            let key = ["CHINESE": "chinese", "HEBREW": "hebrew", "ISLAMIC-CIVIL": "islamic"][calendar.name]
            return key.map { words["repeat.\($0)"] } ?? RepeatPhrase.describe(rule)
        case .rule(let text):
            return RuleWords.text(written: text, words)
        }
    }
}
