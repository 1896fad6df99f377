/// The parts of an RRULE that libical 3.0.16 mishandles, taken out of the rule
/// libical sees and applied in Swift instead:
/// - BY-lists out of order or with repeats (libical skips values);
/// - time BY-parts on an all-day start (RFC 5545 says to ignore them);
/// - INTERVAL above 1 on HOURLY, MINUTELY and SECONDLY rules with BY-parts;
/// - BYSETPOS outside MONTHLY/YEARLY, or together with time BY-parts;
/// - negative BYMONTHDAY / BYYEARDAY used as limits;
/// - YEARLY with BYWEEKNO, rewritten as WEEKLY plus a week-number filter.
/// Once anything is filtered here, COUNT must be counted here too.
///
/// And one bound that is not a libical bug: COUNT is capped at `maxCount`. A
/// COUNT rule cannot jump ahead, so reaching today means walking every
/// occurrence since DTSTART; `FREQ=SECONDLY;COUNT=2000000000` made each
/// render walk millions of them (52 s, 400 MB). No countdown needs more.
/// (Rules that libical would search for ever are refused earlier, by
/// `RuleFeasibility`.)
struct RuleRepair {
    static let maxCount = 100_000

    var libicalRule: RecurrenceRule
    /// Where libical starts iterating: moved back to the start of DTSTART's
    /// period when BYSETPOS needs whole periods.
    var libicalStart: LocalDateTime
    let start: LocalDateTime
    /// COUNT enforced in Swift (nil when libical can enforce it).
    var count: Int?
    var setPositions: [Int] = []
    var monthDays: [Int] = []
    var yearDays: [Int] = []
    var weekNumbers: [Int] = []
    var weekYearInterval = 1
    var weekYearBase = 0
    var subDailyInterval = 1
    let frequency: RecurrenceRule.Frequency
    let weekStart: Int

    private static let weekdays = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
    private static let numericLists = ["BYSECOND", "BYMINUTE", "BYHOUR", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS"]

    init(rule original: RecurrenceRule, start: LocalDateTime, isDate: Bool) {
        var rule = original
        for key in Self.numericLists where rule.value(key) != nil {
            let sorted = Array(Set(rule.integers(key))).sorted()
            rule = rule.setting(key, sorted.map(String.init).joined(separator: ","))
        }
        if rule.value("BYDAY") != nil {
            var seen = Set<String>()
            rule = rule.setting("BYDAY", rule.list("BYDAY").filter { seen.insert($0).inserted }.joined(separator: ","))
        }
        if isDate { rule = rule.removing(["BYHOUR", "BYMINUTE", "BYSECOND"]) }

        self.start = start
        libicalStart = start
        frequency = rule.frequency
        weekStart = Self.weekdays.firstIndex(of: rule.value("WKST") ?? "MO") ?? 1
        libicalRule = rule

        let subDaily: Set<RecurrenceRule.Frequency> = [.secondly, .minutely, .hourly]
        let belowMonthly = subDaily.union([.daily, .weekly])
        let hasTimeParts = ["BYHOUR", "BYMINUTE", "BYSECOND"].contains { rule.value($0) != nil }
        let hasByParts = rule.parts.contains { $0.key.hasPrefix("BY") }

        if subDaily.contains(frequency), rule.interval > 1, hasByParts {
            subDailyInterval = rule.interval
            libicalRule = libicalRule.removing(["INTERVAL"])
        }
        if belowMonthly.contains(frequency), rule.integers("BYMONTHDAY").contains(where: { $0 < 0 }) {
            monthDays = rule.integers("BYMONTHDAY")
            libicalRule = libicalRule.removing(["BYMONTHDAY"])
        }
        if frequency != .yearly, rule.integers("BYYEARDAY").contains(where: { $0 < 0 }) {
            yearDays = rule.integers("BYYEARDAY")
            libicalRule = libicalRule.removing(["BYYEARDAY"])
        }
        if frequency == .yearly, !rule.integers("BYWEEKNO").isEmpty, rule.value("BYMONTHDAY") == nil,
           rule.value("BYYEARDAY") == nil, rule.value("BYSETPOS") == nil,
           !rule.list("BYDAY").contains(where: { $0.count > 2 }) {
            weekNumbers = rule.integers("BYWEEKNO")
            weekYearInterval = rule.interval
            let days = rule.value("BYDAY") ?? Self.weekdays[start.date.weekday]
            libicalRule = libicalRule.removing(["BYWEEKNO", "INTERVAL"]).setting("FREQ", "WEEKLY").setting("BYDAY", days)
        }
        if !rule.integers("BYSETPOS").isEmpty, belowMonthly.contains(frequency) || hasTimeParts {
            setPositions = rule.integers("BYSETPOS")
            libicalRule = Self.explicitDefaults(libicalRule.removing(["BYSETPOS"]), start: start, isDate: isDate)
            libicalStart = periodStart(of: start)
        }
        // libical 3.0.16 also miscounts some plain rules (BYSECOND on SECONDLY), so
        // COUNT is always counted here, after every repair.
        if let ruleCount = rule.count {
            count = min(ruleCount, Self.maxCount)
            libicalRule = libicalRule.removing(["COUNT"])
        }
        if !weekNumbers.isEmpty {
            // libical's own test data counts INTERVAL from the week-year of DTSTART when
            // DTSTART is itself an instance, and from its calendar year otherwise.
            let numbering = WeekNumbering(weekStart: weekStart)
            let (year, number, weeks) = numbering.weekOfYear(start.date)
            let days = libicalRule.list("BYDAY")
            let startMatches = weekNumbers.contains { $0 > 0 ? $0 == number : weeks + 1 + $0 == number }
                && days.contains(Self.weekdays[start.date.weekday])
            weekYearBase = startMatches ? year : start.date.year
        }
    }

    /// Writes out the BY-parts that RFC 5545 derives from DTSTART, so that the
    /// start can move to the beginning of its period without changing the set.
    private static func explicitDefaults(_ rule: RecurrenceRule, start: LocalDateTime, isDate: Bool) -> RecurrenceRule {
        var rule = rule
        let order: [RecurrenceRule.Frequency] = [.secondly, .minutely, .hourly, .daily, .weekly, .monthly, .yearly]
        let rank = order.firstIndex(of: rule.frequency) ?? 0
        if !isDate {
            if rank > 0, rule.value("BYSECOND") == nil { rule = rule.setting("BYSECOND", String(start.second)) }
            if rank > 1, rule.value("BYMINUTE") == nil { rule = rule.setting("BYMINUTE", String(start.minute)) }
            if rank > 2, rule.value("BYHOUR") == nil { rule = rule.setting("BYHOUR", String(start.hour)) }
        }
        let hasDayParts = ["BYDAY", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO"].contains { rule.value($0) != nil }
        switch rule.frequency {
        case .weekly where rule.value("BYDAY") == nil:
            rule = rule.setting("BYDAY", weekdays[start.date.weekday])
        case .monthly where !hasDayParts:
            rule = rule.setting("BYMONTHDAY", String(start.date.day))
        case .yearly where !hasDayParts:
            if rule.value("BYMONTH") == nil { rule = rule.setting("BYMONTH", String(start.date.month)) }
            rule = rule.setting("BYMONTHDAY", String(start.date.day))
        default: break
        }
        return rule
    }

    /// One FREQ × INTERVAL step in seconds, plus a day: how far past the window
    /// libical's out-of-order output can still reach back into it.
    var periodSeconds: Int64 {
        let unit: Int64 = switch frequency {
        case .secondly: 1
        case .minutely: 60
        case .hourly: 3_600
        case .daily: 86_400
        case .weekly: 7 * 86_400
        case .monthly: 31 * 86_400
        case .yearly: 366 * 86_400
        }
        return unit * Int64(max(libicalRule.interval, subDailyInterval, weekYearInterval)) + 86_400
    }

    var needsWholeSeries: Bool { count != nil || !setPositions.isEmpty }

    func accepts(_ time: LocalDateTime) -> Bool {
        let date = time.date
        if subDailyInterval > 1 {
            let unit: Int64 = frequency == .hourly ? 3_600 : frequency == .minutely ? 60 : 1
            let steps = floorDiv(time.wallSeconds, unit) - floorDiv(start.wallSeconds, unit)
            guard steps % Int64(subDailyInterval) == 0 else { return false }
        }
        if !monthDays.isEmpty {
            let length = CivilDate.daysIn(month: date.month, year: date.year)
            guard monthDays.contains(where: { $0 > 0 ? $0 == date.day : length + 1 + $0 == date.day }) else { return false }
        }
        if !yearDays.isEmpty {
            let dayOfYear = date.daysSinceEpoch - CivilDate(year: date.year, month: 1, day: 1).daysSinceEpoch + 1
            let length = CivilDate.isLeap(date.year) ? 366 : 365
            guard yearDays.contains(where: { $0 > 0 ? $0 == dayOfYear : length + 1 + $0 == dayOfYear }) else { return false }
        }
        if !weekNumbers.isEmpty {
            let week = WeekNumbering(weekStart: weekStart)
            let (year, number, weeksInYear) = week.weekOfYear(date)
            guard weekNumbers.contains(where: { $0 > 0 ? $0 == number : weeksInYear + 1 + $0 == number }),
                  (year - weekYearBase) % weekYearInterval == 0 else { return false }
        }
        return true
    }

    /// BYSETPOS over the sets that one FREQ period produces (RFC 5545 §3.3.10),
    /// then dropping what falls before the real DTSTART.
    func selectPositions(_ sorted: [LocalDateTime]) -> [LocalDateTime] {
        var selected: [LocalDateTime] = []
        var index = 0
        while index < sorted.count {
            let key = periodKey(sorted[index])
            var end = index
            while end < sorted.count, periodKey(sorted[end]) == key { end += 1 }
            let group = sorted[index..<end]
            for position in setPositions {
                let offset = position > 0 ? position - 1 : group.count + position
                if offset >= 0, offset < group.count { selected.append(group[group.startIndex + offset]) }
            }
            index = end
        }
        return Array(Set(selected)).filter { $0 >= start }.sorted()
    }

    private func periodStart(of time: LocalDateTime) -> LocalDateTime {
        let date = time.date
        switch frequency {
        case .secondly: return time
        case .minutely: return LocalDateTime(date: date, hour: time.hour, minute: time.minute)
        case .hourly: return LocalDateTime(date: date, hour: time.hour)
        case .daily: return LocalDateTime(date: date)
        case .weekly: return LocalDateTime(date: date.adding(days: -((date.weekday - weekStart + 7) % 7)))
        case .monthly: return LocalDateTime(year: date.year, month: date.month, day: 1)
        case .yearly: return LocalDateTime(year: date.year, month: 1, day: 1)
        }
    }

    private func periodKey(_ time: LocalDateTime) -> Int64 { periodStart(of: time).wallSeconds }
}

func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
