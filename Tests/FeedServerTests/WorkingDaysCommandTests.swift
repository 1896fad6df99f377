import Foundation
import ServerTestSupport
import Testing
import TestSupport

/// Working days from the command line, with the real `tminus` binary: a feed
/// made with `--holidays` and `--weekend` counts them in `tminus list`, and
/// bad values are refused with the option's name.
@Suite(.enabled(if: Corpus.tminusBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "tminus binary not built"))
struct WorkingDaysCommandTests {
    /// Runs the binary; returns its exit status and what it printed (both streams).
    static func tminus(_ arguments: [String], database: String) async throws -> (Int32, String) {
        let result = try await ChildRun.run(try #require(Corpus.tminusBinary), arguments + ["--db", database])
        return (result.status, result.out + result.err)
    }

    @Test func listCountsWorkingDaysWithTheHolidaysFeedNamedAtCreation() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-workdays-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("db.sqlite").path
        // Today in UTC, as `list --tz UTC` counts; a holiday on the 10th weekday from now.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let today = utc.startOfDay(for: Date())
        func day(_ offset: Int) -> Date { utc.date(byAdding: .day, value: offset, to: today)! }
        func isWeekday(_ date: Date, weekend: Set<Int>) -> Bool { !weekend.contains(utc.component(.weekday, from: date)) }
        let fridaySaturday: Set<Int> = [6, 7]   // Calendar weekdays: 1 is Sunday
        let holiday = (1...40).map(day).filter { isWeekday($0, weekend: fridaySaturday) }[9]
        // A target where ignoring the feed's weekend (counting Saturday and Sunday off) gives another number.
        func count(through offset: Int, weekend: Set<Int>) -> Int {
            (1...offset).map(day).filter { isWeekday($0, weekend: weekend) && $0 != holiday }.count
        }
        let offset = try #require((25...40).first { count(through: $0, weekend: fridaySaturday) != count(through: $0, weekend: [1, 7]) })
        let target = day(offset)
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = utc.timeZone
        format.dateFormat = "yyyyMMdd"
        let calendar = directory.appendingPathComponent("holidays.ics")
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tminus//tests//EN\r\nBEGIN:VEVENT\r\nUID:day-off@tests\r\nDTSTAMP:20260101T000000Z\r
        SUMMARY:Day off\r\nDTSTART;VALUE=DATE:\(format.string(from: holiday))\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """.write(to: calendar, atomically: true, encoding: .utf8)

        #expect(try await Self.tminus(["feeds", "add", "days-off"], database: database).0 == 0)
        #expect(try await Self.tminus(["import", calendar.path, "--feed", "days-off"], database: database).0 == 0)
        #expect(try await Self.tminus(["feeds", "add", "work", "--holidays", "days-off", "--weekend", "fri,sat"], database: database).0 == 0)
        format.dateFormat = "yyyy-MM-dd"
        let (added, addOutput) = try await Self.tminus(["add", "Release", "--date", format.string(from: target), "--feed", "work", "--unit", "workdays"],
                                                 database: database)
        #expect(added == 0, "\(addOutput)")

        // The independent count: each day after today through the target, off Friday, Saturday and the holiday.
        let expected = count(through: offset, weekend: fridaySaturday)
        let (listed, text) = try await Self.tminus(["list", "--feed", "work", "--tz", "UTC"], database: database)
        #expect(listed == 0)
        #expect(text.contains("\(expected) working days"), "\(text)")
        let (_, json) = try await Self.tminus(["list", "--feed", "work", "--tz", "UTC", "--json"], database: database)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let countdown = try #require((root["countdowns"] as? [[String: Any]])?.first)
        #expect(countdown["workdays"] as? Int == expected && countdown["days"] as? Int == offset && countdown["unit"] as? String == "workdays")
    }

    @Test func badWeekendAndHolidaysAreRefusedByName() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-workdays-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("db.sqlite").path
        let (status, output) = try await Self.tminus(["feeds", "add", "work", "--weekend", "fri,caturday"], database: database)
        #expect(status != 0 && output.contains("--weekend: 'caturday' is not a day of the week"), "\(output)")
        let (allWeek, allWeekOutput) = try await Self.tminus(["feeds", "add", "work", "--weekend", "mon,tue,wed,thu,fri,sat,sun"], database: database)
        #expect(allWeek != 0 && allWeekOutput.contains("every day of the week"), "\(allWeekOutput)")
        let (itself, itselfOutput) = try await Self.tminus(["feeds", "add", "work", "--holidays", "work"], database: database)
        #expect(itself != 0 && itselfOutput.contains("--holidays"), "\(itselfOutput)")
        // Refused before the database is opened, so there is none (issue #40: `feeds list` then makes none either).
        let listed = try await Self.tminus(["feeds"], database: database).1
        #expect(listed.contains("no feeds yet") || listed.contains("no database at"), "nothing was created: \(listed)")
    }
}
