/// Which part of a rule is out of RFC 5545 3.3.10's ranges, named with its
/// value ("BYDAY=XX: XX is not a weekday (MO TU WE TH FR SA SU)") for the CLI,
/// the API and the web form alike, where libical would only say it failed.
/// Two uses: after libical refused a rule, to say why; and before libical, for
/// a BYDAY position, which libical takes whatever its size (it accepted
/// `-9223372036854775808MO`, whose reading then negated the smallest Int).
enum RulePartProblem {
    /// A BYDAY position out of ±53, asked of every rule before libical reads it.
    static func positionProblem(in rule: RecurrenceRule) -> String? {
        guard let days = rule.value("BYDAY") else { return nil }
        return firstProblem(days, weekday).map { "BYDAY=\(days): \($0)" }
    }

    static let weekdays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    static func problem(in rule: RecurrenceRule) -> String? {
        for part in rule.parts {
            if let why = problem(key: part.key, value: part.value, rscale: rule.value("RSCALE") != nil) {
                return "\(part.key)=\(part.value): \(why)"
            }
        }
        return nil
    }

    private static func problem(key: String, value: String, rscale: Bool) -> String? {
        switch key {
        case "WKST": return weekdays.contains(value) ? nil : "\(value) is not a weekday (\(weekdays.joined(separator: " ")))"
        case "BYDAY": return firstProblem(value, weekday)
        case "BYMONTH" where !rscale: return firstProblem(value) { number($0, in: 1...12, signed: false, what: "a month") }
        case "BYMONTHDAY": return firstProblem(value) { number($0, in: 1...31, signed: true, what: "a day of the month") }
        case "BYYEARDAY": return firstProblem(value) { number($0, in: 1...366, signed: true, what: "a day of the year") }
        case "BYWEEKNO": return firstProblem(value) { number($0, in: 1...53, signed: true, what: "a week of the year") }
        case "BYSETPOS": return firstProblem(value) { number($0, in: 1...366, signed: true, what: "a position in the set") }
        case "BYHOUR": return firstProblem(value) { number($0, in: 0...23, signed: false, what: "an hour") }
        case "BYMINUTE": return firstProblem(value) { number($0, in: 0...59, signed: false, what: "a minute") }
        case "BYSECOND": return firstProblem(value) { number($0, in: 0...60, signed: false, what: "a second") }
        default: return nil
        }
    }

    private static func firstProblem(_ list: String, _ check: (Substring) -> String?) -> String? {
        for item in list.split(separator: ",", omittingEmptySubsequences: false) {
            if item.isEmpty { return "an empty value in the list" }
            if let why = check(item) { return why }
        }
        return nil
    }

    /// `MO`, `2TU`, `-1FR`: an optional ordinal from 1 to 53 (either sign), then a weekday.
    private static func weekday(_ item: Substring) -> String? {
        let name = String(item.suffix(2))
        guard weekdays.contains(name) else { return "\(item) is not a weekday (\(weekdays.joined(separator: " ")), optionally after a number such as 2MO or -1FR)" }
        let ordinal = item.dropLast(2)
        if ordinal.isEmpty { return nil }
        guard let n = Int(ordinal.hasPrefix("+") ? ordinal.dropFirst() : ordinal), n != 0, (-53...53).contains(n) else {
            return "\(ordinal) before \(name) is not a position (1 to 53, or -1 to -53 from the end)"
        }
        return nil
    }

    private static func number(_ item: Substring, in range: ClosedRange<Int>, signed: Bool, what: String) -> String? {
        let digits = signed && (item.hasPrefix("-") || item.hasPrefix("+")) ? item.dropFirst() : item
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let n = Int(digits), range.contains(n) else {
            let allowed = signed ? "\(range.lowerBound) to \(range.upperBound), or -\(range.lowerBound) to -\(range.upperBound) from the end"
                                 : "\(range.lowerBound) to \(range.upperBound)"
            return "\(item) is not \(what) (\(allowed))"
        }
        return nil
    }
}
