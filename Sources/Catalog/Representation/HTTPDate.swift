import Foundation
import ICalendar

/// RFC 7231 §7.1.1.1 dates: IMF-fixdate out; IMF-fixdate, RFC 850 and asctime in.
/// Hand-written so that no locale or formatter state can change the bytes.
package enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    package static func format(_ date: Date) -> String {
        let t = Zone.utc.local(of: date)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[t.date.weekday]), \(two(t.date.day)) \(months[t.date.month - 1]) \(t.date.year) "
            + "\(two(t.hour)):\(two(t.minute)):\(two(t.second)) GMT"
    }

    /// nil for anything that is not one of the three forms: the caller must then ignore the header.
    package static func parse(_ raw: String) -> Date? {
        let tokens = raw.replacingOccurrences(of: ",", with: " ").split(separator: " ").map(String.init)
        var day: Int?, month: Int?, year: Int?, clock: [Int]?
        for token in tokens {
            if let index = months.firstIndex(of: token) { month = index + 1 }
            else if token.contains(":") {
                let parts = token.split(separator: ":").compactMap { Int($0) }
                guard parts.count == 3 else { return nil }
                clock = parts
            } else if token.contains("-") {   // RFC 850: 06-Nov-94
                let parts = token.split(separator: "-")
                guard parts.count == 3, let d = Int(parts[0]), let m = months.firstIndex(of: String(parts[1])), let y = Int(parts[2]) else { return nil }
                day = d; month = m + 1; year = y < 100 ? (y < 70 ? 2000 + y : 1900 + y) : y
            } else if let number = Int(token) {
                if token.count == 4 { year = number } else if day == nil { day = number } else { return nil }
            } else if token != "GMT", !days.contains(token), !days.contains(where: { token.hasPrefix($0) }) {
                return nil
            }
        }
        guard let day, let month, let year, let clock,
              (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]) else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid else { return nil }
        return Zone.utc.instant(of: LocalDateTime(date: date, hour: clock[0], minute: clock[1], second: min(clock[2], 59)))
    }
}
