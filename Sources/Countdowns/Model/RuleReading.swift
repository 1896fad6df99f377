import ICalendar

/// An RRULE read aloud: "Every 2 weeks on Monday and Wednesday, 10 times".
/// The web app shows it next to a custom rule so that a person can check what
/// they typed; an invalid rule reads as the reason it is invalid. It covers the
/// parts people write (FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS,
/// COUNT, UNTIL); anything else is named as "with …".
public enum RuleReading {
    static let weekdays = ["SU": "Sunday", "MO": "Monday", "TU": "Tuesday", "WE": "Wednesday", "TH": "Thursday", "FR": "Friday", "SA": "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    public static func describe(_ text: String, startingOn start: CivilDate) -> String {
        let rule: RecurrenceRule
        do { rule = try RecurrenceRule(parsing: text) } catch { return "Not a valid rule: \(error.message)" }
        let interval = rule.interval
        let unit: String
        switch rule.frequency {
        case .secondly: unit = "second"
        case .minutely: unit = "minute"
        case .hourly: unit = "hour"
        case .daily: unit = "day"
        case .weekly: unit = "week"
        case .monthly: unit = "month"
        case .yearly: unit = "year"
        }
        var words = interval == 1 ? "Every \(unit)" : "Every \(interval) \(unit)s"
        var handled: Set<String> = ["FREQ", "INTERVAL", "WKST", "RSCALE", "SKIP"]
        if let calendar = rule.value("RSCALE"), calendar != "GREGORIAN" {
            words += " of the " + calendar.lowercased().split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ") + " calendar"
        }
        if let months = rule.value("BYMONTH") {
            handled.insert("BYMONTH")
            if rule.value("RSCALE").map({ $0 != "GREGORIAN" }) == true {
                // Another calendar's months have no English names here: "in month 5L" (a leap month).
                words += " in month " + list(months.split(separator: ",").map(String.init))
            } else {
                words += " in " + list(months.split(separator: ",").compactMap { Int($0).flatMap { (1...12).contains($0) ? Self.months[$0 - 1] : nil } })
            }
        }
        if let days = rule.value("BYMONTHDAY") {
            handled.insert("BYMONTHDAY")
            words += " on the " + list(days.split(separator: ",").compactMap { Int($0) }.map(dayOfMonth))
        }
        if let days = rule.value("BYDAY") {
            handled.insert("BYDAY")
            words += " on " + list(days.split(separator: ",").map { weekday(String($0)) })
        }
        if let positions = rule.value("BYSETPOS") {
            handled.insert("BYSETPOS")
            words += ", only the " + list(positions.split(separator: ",").compactMap { Int($0) }.map(position)) + " of those"
        }
        if let count = rule.value("COUNT") {
            handled.insert("COUNT")
            words += count == "1" ? ", once" : ", \(count) times"
        }
        if let until = rule.value("UNTIL") {
            handled.insert("UNTIL")
            words += ", until " + (CivilDate(parsing: String(until.prefix(8))).map { "\($0.iso)" } ?? until)
        }
        let rest = rule.parts.filter { !handled.contains($0.key) }.map { "\($0.key)=\($0.value)" }
        if !rest.isEmpty { words += ", with " + rest.joined(separator: ";") }
        if rule.value("BYDAY") == nil, rule.value("BYMONTHDAY") == nil, rule.frequency == .weekly || rule.frequency == .monthly || rule.frequency == .yearly {
            words += ", from \(start.iso)"
        }
        return words
    }

    /// "Monday", "the last Friday", "the 2nd Tuesday".
    static func weekday(_ code: String) -> String {
        let name = weekdays[String(code.suffix(2))] ?? code
        guard code.count > 2, let number = Int(code.dropLast(2)) else { return name }
        return "the " + position(number) + " " + name
    }

    static func dayOfMonth(_ day: Int) -> String {
        guard (-366...366).contains(day) else { return String(day) }
        return day == -1 ? "last day" : day < 0 ? "\(Ordinal.english(-day)) last day" : Ordinal.english(day)
    }

    static func position(_ number: Int) -> String {
        // Only a valid rule is read, whose positions are small; a number out of any range is said as written, never negated.
        guard (-366...366).contains(number) else { return String(number) }
        return number == -1 ? "last" : number < 0 ? "\(Ordinal.english(-number)) last" : Ordinal.english(number)
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
