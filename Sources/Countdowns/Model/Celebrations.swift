import ICalendar

/// The days people celebrate beyond the countdown itself, which a feed's
/// countdown calendar adds as events of their own:
/// - half-birthdays: for a yearly countdown whose title has `{n}`, the day six
///   months before each occurrence, titled with `{n}½` ("Anna turns 29½");
/// - round day counts of count-ups: "No smoking — 1,000 days" on the day it has
///   run that long (from its date), for each of the feed's thresholds.
public struct Celebrations: Sendable, Hashable, Codable {
    public var halfBirthdays: Bool
    /// Day counts celebrated for count-ups, ascending.
    public var dayCounts: [Int]

    public static let defaultDayCounts = [100, 500, 1_000, 5_000, 10_000]
    public static let `default` = Celebrations(halfBirthdays: true, dayCounts: defaultDayCounts)
    public static let none = Celebrations(halfBirthdays: false, dayCounts: [])

    public init(halfBirthdays: Bool, dayCounts: [Int]) {
        self.halfBirthdays = halfBirthdays
        self.dayCounts = Array(Set(dayCounts)).sorted()
    }

    /// One celebrated day: its date, the title, and a key that stays the same for it.
    public struct Day: Sendable, Hashable {
        public var date: CivilDate
        public var title: String
        public var key: String
    }

    /// The celebrated days of `series` from `first` through `last` (inclusive).
    public func days(of series: CountdownSeries, from first: CivilDate, through last: CivilDate, zone: Zone,
                     language: Language = .english) -> [Day] {
        let countdown = series.countdown
        guard countdown.status == .active else { return [] }
        var found: [Day] = []
        if halfBirthdays, countdown.title.contains("{n}"), let numbering = countdown.repeatRule.yearNumbering, numbering.interval == 1 {
            // Each occurrence up to six months past the window has its half-birthday before it.
            let targets = series.dates(from: first, through: CivilArithmetic.addMonths(last, 6), zone: zone, limit: 64)
            for target in targets {
                let half = CivilArithmetic.addMonths(target, -6)
                let age = (numbering.number(on: target, from: countdown.target.civilDate) ?? 0) - 1
                guard half >= first, half <= last, age >= 0 else { continue }
                found.append(Day(date: half, title: Countdown.render(countdown.title, numberText: "\(age)½"), key: "half-\(target.basic)"))
            }
        }
        if countdown.direction == .up, !countdown.isRepeating {
            let start = countdown.target.civilDate
            for count in dayCounts {
                let day = start.adding(days: count)
                guard day >= first, day <= last else { continue }
                found.append(Day(date: day, title: countdown.title + " — " + language.quantity(count, .days, grouped: true), key: "days-\(count)"))
            }
        }
        return found
    }
}
