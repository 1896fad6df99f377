import Synchronization

/// Rules that pass `RuleFeasibility` on their own but never match from their
/// DTSTART, because INTERVAL keeps stepping over every day the filters let
/// through (issue #27):
/// - `FREQ=DAILY;INTERVAL=7;BYDAY=TU` from a Monday: every step is a Monday;
/// - `FREQ=HOURLY;INTERVAL=168;BYDAY=TU`: the same, in hours;
/// - `FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=30` from 1 February: always February;
/// - `FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29` from 2025: never a leap year.
///
/// and shorter steps that never meet the times of day allowed
/// (`FREQ=HOURLY;INTERVAL=2;BYHOUR=4,6` from 09:00). A walk would search
/// each of them to the year 9999 on every expansion (libical searched to its
/// 2582: 250 ms a search, on every uncached render). Only DTSTART happens, so
/// the validator reports the rule with its line and the expander leaves it
/// out (`SeriesShape`): the series has no next occurrence, computed once.
///
/// Found by walking one whole cycle of the steps: dates and weekdays repeat
/// every 400 Gregorian years (146,097 days, 4,800 months), so a step that
/// reaches no allowed day within the cycle never will. Rules this cannot
/// reason about (WEEKLY, BYWEEKNO, BYYEARDAY in yearly rules, RSCALE, times of
/// day that drift beside day filters) are left to the expander and its budget.
public enum UnreachableRule {
    private static let remembered = Mutex<[String: String?]>([:])

    /// Why the rule never matches from `start`, or nil when it does (or may).
    public static func problem(with rule: RecurrenceRule, from start: DateTimeValue) -> String? {
        guard rule.value("RSCALE") == nil, rule.frequency != .weekly, rule.value("BYWEEKNO") == nil else { return nil }
        let key = rule.text + "@" + start.local.basic
        if let known = remembered.withLock({ $0[key] }) { return known }
        let answer = walk(rule, from: start)
        remembered.withLock { table in
            if table.count >= 4_096 { table.removeAll() }   // a bound, not a cache policy: rules repeat
            table[key] = answer
        }
        return answer
    }

    private static func walk(_ rule: RecurrenceRule, from start: DateTimeValue) -> String? {
        let first = start.civilDate
        let interval = max(1, rule.interval)
        let shape = "FREQ=\(rule.frequency.rawValue)" + (interval > 1 ? ";INTERVAL=\(interval)" : "")
        let filters = rule.parts.filter { !["FREQ", "INTERVAL", "COUNT", "UNTIL", "WKST"].contains($0.key) }.map { "\($0.key)=\($0.value)" }
        let allowed = filters.isEmpty ? "DTSTART's day of the month" : filters.joined(separator: ";")
        let never = "\(shape) from DTSTART \(first.iso) never reaches a day that \(allowed) allows, so only DTSTART happens"
        switch rule.frequency {
        case .daily, .hourly, .minutely, .secondly:
            let unit = [RecurrenceRule.Frequency.daily: 86_400, .hourly: 3_600, .minutely: 60, .secondly: 1][rule.frequency]!
            let seconds = interval * unit
            // A step of whole days keeps the time of day: only then are the days visited a simple progression.
            // Otherwise the times of day visited are DTSTART's plus multiples of gcd(step, one day).
            guard seconds % 86_400 == 0 else { return reachesATimeOfDay(rule, start, step: seconds) ? nil : neverAtThatTime(rule, start) }
            if !timeOfDayAllowed(rule, start, frequency: rule.frequency) { return never }
            let dayFilters = DayFilterGap.Filters(rule: rule)
            if dayFilters.isEmpty { return nil }
            let step = seconds / 86_400
            let steps = DayFilterGap.cycleDays / gcd(step, DayFilterGap.cycleDays)
            let origin = first.daysSinceEpoch
            for k in 0..<steps where matches(CivilDate(daysSinceEpoch: origin + k * step), dayFilters) { return nil }
            return never
        case .monthly:
            guard rule.value("BYYEARDAY") == nil else { return nil }
            let months = Set(rule.integers("BYMONTH"))
            let steps = 4_800 / gcd(interval, 4_800)
            let origin = first.year * 12 + first.month - 1
            for k in 0..<steps {
                let index = origin + k * interval
                let (year, month) = (index / 12, index % 12 + 1)
                if (months.isEmpty || months.contains(month)), monthHasDay(rule, year: year, month: month, startDay: first.day) { return nil }
            }
            return never
        case .yearly:
            guard rule.value("BYYEARDAY") == nil else { return nil }
            let months = rule.integers("BYMONTH")
            // BYDAY without BYMONTH counts weekdays in the whole year; BYMONTHDAY
            // without BYMONTH falls in every month: both are left to the expander.
            if months.isEmpty, rule.value("BYDAY") != nil || rule.value("BYMONTHDAY") != nil { return nil }
            let candidates = months.isEmpty ? [first.month] : months
            let steps = 400 / gcd(interval, 400)
            for k in 0..<steps {
                let year = first.year + k * interval
                if candidates.contains(where: { monthHasDay(rule, year: year, month: $0, startDay: first.day) }) { return nil }
            }
            return never
        case .weekly:
            return nil
        }
    }

    /// With whole-day steps the time of day of each step never changes, so
    /// the parts that limit it must let DTSTART's through. Which parts limit
    /// depends on the frequency (RFC 5545 §3.3.10, the table of BYxxx parts):
    /// those as fine as the frequency or coarser limit, finer ones expand. For
    /// DAILY all three expand (`FREQ=DAILY;BYHOUR=6,18` from 09:00 is twice a
    /// day: it was refused as never reaching 06:00 or 18:00, issue #61, 1);
    /// for HOURLY only BYHOUR limits; for MINUTELY BYHOUR and BYMINUTE.
    private static func timeOfDayAllowed(_ rule: RecurrenceRule, _ start: DateTimeValue, frequency: RecurrenceRule.Frequency) -> Bool {
        guard !start.isAllDay else { return true }
        let local = start.local
        let limiting: [(String, Int)] = switch frequency {
        case .secondly: [("BYHOUR", local.hour), ("BYMINUTE", local.minute), ("BYSECOND", local.second)]
        case .minutely: [("BYHOUR", local.hour), ("BYMINUTE", local.minute)]
        case .hourly: [("BYHOUR", local.hour)]
        default: []
        }
        for (key, value) in limiting where rule.value(key) != nil {
            if !rule.integers(key).contains(value) { return false }
        }
        return true
    }

    /// Whether a shorter-than-daily rule's steps ever land on a time of day its
    /// limiting parts allow: the period starts visited are DTSTART's (at the
    /// frequency's unit) plus multiples of gcd(step, 86,400 s), whatever the day.
    /// `FREQ=HOURLY;INTERVAL=2;BYHOUR=4,6` from 09:00 visits odd hours only
    /// (python-dateutil refuses it as "an empty set"; the walk would search to 9999).
    private static func reachesATimeOfDay(_ rule: RecurrenceRule, _ start: DateTimeValue, step: Int) -> Bool {
        guard !start.isAllDay else { return true }
        let local = start.local
        let unit = rule.frequency == .hourly ? 3_600 : rule.frequency == .minutely ? 60 : 1
        let origin = (local.hour * 3_600 + local.minute * 60 + local.second) / unit * unit
        let residue = gcd(step, 86_400)
        let hours = rule.value("BYHOUR") == nil ? Array(0..<24) : rule.integers("BYHOUR")
        let minutes = unit > 60 ? [0] : rule.value("BYMINUTE") == nil ? Array(0..<60) : rule.integers("BYMINUTE")
        let seconds = unit > 1 ? [0] : rule.value("BYSECOND") == nil ? Array(0..<60) : rule.integers("BYSECOND").map { min($0, 59) }
        for hour in hours { for minute in minutes { for second in seconds {
            let time = hour * 3_600 + minute * 60 + second
            if (time - origin) % residue == 0 { return true }
        } } }
        return false
    }

    private static func neverAtThatTime(_ rule: RecurrenceRule, _ start: DateTimeValue) -> String {
        let interval = max(1, rule.interval)
        let limits = ["BYHOUR", "BYMINUTE", "BYSECOND"].filter { rule.value($0) != nil }.map { "\($0)=\(rule.value($0)!)" }
        let time = String(start.local.iso.suffix(8))
        return "FREQ=\(rule.frequency.rawValue)\(interval > 1 ? ";INTERVAL=\(interval)" : "") from DTSTART \(time) never reaches a time of day that \(limits.joined(separator: ";")) allows, so only DTSTART happens"
    }

    private static func matches(_ date: CivilDate, _ filters: DayFilterGap.Filters) -> Bool {
        let monthLength = CivilDate.daysIn(month: date.month, year: date.year)
        let yearLength = CivilDate.isLeap(date.year) ? 366 : 365
        let yearDay = date.daysSinceEpoch - CivilDate(year: date.year, month: 1, day: 1).daysSinceEpoch + 1
        let weekday = ((date.daysSinceEpoch % 7) + 7 + 4) % 7   // 1970-01-01 was a Thursday; 0 = Sunday
        return (filters.months.isEmpty || filters.months.contains(date.month))
            && (filters.monthDays.isEmpty || filters.monthDays.contains(date.day) || filters.monthDays.contains(date.day - monthLength - 1))
            && (filters.yearDays.isEmpty || filters.yearDays.contains(yearDay) || filters.yearDays.contains(yearDay - yearLength - 1))
            && (filters.weekdays.isEmpty || filters.weekdays.contains(weekday))
    }

    /// Whether a MONTHLY (or YEARLY, within BYMONTH) rule has a day in this
    /// month: BYMONTHDAY's days that exist, limited by BYDAY; else BYDAY's
    /// weekdays (numbered ones counted in the month); else DTSTART's day.
    private static func monthHasDay(_ rule: RecurrenceRule, year: Int, month: Int, startDay: Int) -> Bool {
        let length = CivilDate.daysIn(month: month, year: year)
        let firstWeekday = ((CivilDate(year: year, month: month, day: 1).daysSinceEpoch % 7) + 7 + 4) % 7
        let monthDays = rule.integers("BYMONTHDAY").map { $0 > 0 ? $0 : length + 1 + $0 }.filter { (1...length).contains($0) }
        let byDay = rule.list("BYDAY")
        if rule.value("BYMONTHDAY") != nil, monthDays.isEmpty { return false }
        let days = rule.value("BYMONTHDAY") != nil ? monthDays : byDay.isEmpty ? [startDay].filter { $0 <= length } : Array(1...length)
        guard !byDay.isEmpty else { return !days.isEmpty }
        let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        return days.contains { day in
            let weekday = (firstWeekday + day - 1) % 7
            return byDay.contains { entry in
                guard names.firstIndex(of: String(entry.suffix(2))) == weekday else { return false }
                guard let ordinal = Int(entry.dropLast(2)), ordinal != 0 else { return true }
                let nth = (day - 1) / 7 + 1, fromEnd = (length - day) / 7 + 1
                return ordinal > 0 ? ordinal == nth : -ordinal == fromEnd
            }
        }
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
