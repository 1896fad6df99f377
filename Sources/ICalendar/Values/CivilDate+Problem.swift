extension CivilDate {
    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                                     "October", "November", "December"]

    /// Why `text` is not a date that `init(parsing:)` accepts, in words a user
    /// can act on: "2026-02-30 is not a date: February 2026 has 28 days".
    /// Nil when it is one.
    public static func problem(with text: String) -> String? {
        guard CivilDate(parsing: text) == nil else { return nil }
        let digits = text.filter { $0 != "-" }
        guard digits.count == 8, digits.allSatisfy(\.isASCIIDigit), text.count == 8 || text.count == 10 else {
            return "'\(text.prefix(40))' is not a date: write it as YYYY-MM-DD"
        }
        let number = { (range: Range<Int>) in Int(String(Array(digits)[range]))! }
        let year = number(0..<4), month = number(4..<6), day = number(6..<8)
        if year < 1 { return "\(text) is not a date: years start at 0001" }
        guard (1...12).contains(month) else { return "\(text) is not a date: there is no month \(month) (months are 01 to 12)" }
        let days = daysIn(month: month, year: year)
        return "\(text) is not a date: \(monthNames[month - 1]) \(year) has \(days) days" + (day == 0 ? " (days start at 01)" : "")
    }
}
