import Countdowns
import Foundation
import ICalendar

/// How the app writes times and the names of days and months. Instants are
/// `2026-11-23 14:05 UTC`, unambiguous in any language; days and months are
/// named in the page's language by ICU (`Language.locale`), in UTC, because
/// they are civil dates, not instants.
package enum AppDates {
    package static func text(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let day = Int((Double(seconds) / 86_400).rounded(.down))
        let civil = CivilDate(daysSinceEpoch: day).iso
        let rest = seconds - day * 86_400
        return civil + String(format: " %02d:%02d UTC", rest / 3600, rest % 3600 / 60)
    }

    /// "November 2026", "November 2026", "2026年11月", "نوفمبر ٢٠٢٦".
    package static func month(_ date: CivilDate, in language: Language) -> String {
        formatted(date, template: "MMMMy", in: language)
    }

    /// "16 June 2027", "16. Juni 2027", "2027年6月16日": a day in full.
    package static func day(_ date: CivilDate, in language: Language) -> String {
        formatted(date, template: "yMMMMd", in: language)
    }

    /// "16 June", "16. Juni", "6月16日": a day of a month, every year.
    package static func dayOfMonth(_ day: Int, month: Int, in language: Language) -> String {
        // 2000 is a leap year, so 29 February has a date to format.
        guard (1...12).contains(month) else { return "\(day)/\(month)" }
        return formatted(CivilDate(year: 2000, month: month, day: max(1, min(day, CivilDate.daysIn(month: month, year: 2000)))), template: "MMMMd", in: language)
    }

    /// "June", "Juni", "6月", the month standing alone.
    package static func monthName(_ month: Int, in language: Language) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = language.locale
        let names = calendar.standaloneMonthSymbols
        return names.indices.contains(month - 1) ? names[month - 1] : String(month)
    }

    /// A statistics bar's label: a week's days as "Mon 3" and a year's months
    /// as "Jan" in `language`; a month's ranges of days ("1–7") and a day's
    /// number are the same in every language, as `CategoryStatistics` made them.
    package static func bucketLabel(_ start: CivilDate, period: CategoryStatistics.Period, in language: Language, fallback: String) -> String {
        switch period {
        case .week: formatted(start, template: "EEEd", in: language)
        case .year: formatted(start, template: "MMM", in: language)
        case .day, .month: fallback
        }
    }

    /// The weekdays' names in `language`, Sunday first (as `Weekday`'s raw values): "Sonntag", "日曜日".
    package static func weekdayNames(in language: Language) -> [String] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = language.locale
        return calendar.standaloneWeekdaySymbols
    }

    private static func formatted(_ date: CivilDate, template: String, in language: Language) -> String {
        let formatter = DateFormatter()
        formatter.locale = language.locale
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.setLocalizedDateFormatFromTemplate(template)
        return formatter.string(from: Date(timeIntervalSince1970: Double(date.daysSinceEpoch) * 86_400))
    }
}
