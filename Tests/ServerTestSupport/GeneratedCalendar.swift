import Foundation

/// A large, realistic calendar made in the test itself: yearly all-day
/// birthdays, weekly zoned meetings with COUNT, monthly bills, one-off timed
/// and all-day events, spread over the years around 2026.
package enum GeneratedCalendar {
    package static func make(events: Int) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tminus tests//generated//EN"]
        let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo"]
        for index in 0..<events {
            let month = 1 + index % 12, day = 1 + index % 28
            let date = String(format: "%04d%02d%02d", 2024 + index % 4, month, day)
            lines += ["BEGIN:VEVENT", "UID:generated-\(index)@tests", "DTSTAMP:20260101T000000Z",
                      "SUMMARY:Event \(index) — \(["Birthday", "Meeting", "Bill", "Trip", "Exam"][index % 5])",
                      "CATEGORIES:\(["family", "work", "money", "travel", "school"][index % 5])"]
            switch index % 10 {
            case 0, 1:
                lines += ["DTSTART;VALUE=DATE:\(String(format: "%04d%02d%02d", 1960 + index % 50, month, day))", "RRULE:FREQ=YEARLY"]
            case 2:
                lines += ["DTSTART;TZID=\(zones[index % 3]):\(date)T093000", "DTEND;TZID=\(zones[index % 3]):\(date)T100000",
                          "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=\(20 + index % 200)"]
            case 3:
                lines += ["DTSTART;VALUE=DATE:\(date)", "RRULE:FREQ=MONTHLY;BYMONTHDAY=\(day)"]
            case 4, 5:
                lines += ["DTSTART;VALUE=DATE:\(date)", "DTEND;VALUE=DATE:\(String(format: "%04d%02d%02d", 2024 + index % 4, month, day + 1))"]
            default:
                lines += ["DTSTART;TZID=\(zones[index % 3]):\(date)T\(String(format: "%02d", 8 + index % 10))0000",
                          "DURATION:PT1H"]
            }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
