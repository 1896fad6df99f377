import Foundation
import Testing
import TestSupport
@testable import ICalendar

/// `PlainRuleExpander` is a fast path: every random rule of the shapes it takes,
/// over random windows and limits, must give exactly what the general expander
/// (`GregorianRuleExpander`, RFC 5545's whole table, checked against
/// python-dateutil by `RuleAgreementTests`) gives, so the path never shows.
struct PlainRuleExpanderTests {
    static let codes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
    /// 4 × 300 random rules in `make test` (checked once with 4 × 6,000: 72,000 windows alike).
    static let rulesPerSeed = Int(ProcessInfo.processInfo.environment["TMINUS_PLAIN_RULES"] ?? "") ?? 300

    @Test(arguments: 0..<4)
    func agreesWithTheGeneralExpanderOnRandomPlainRules(seed: Int) {
        var random = SplitMix(seed: 0x5EED_0041 + UInt64(seed))
        var taken = 0
        var compared = 0
        for iteration in 0..<Self.rulesPerSeed {
            let isDate = random.below(3) == 0
            guard let rule = Self.randomRule(&random, isDate: isDate) else { continue }
            var day = CivilDate(year: 1995 + random.below(40), month: 1 + random.below(12), day: 1 + random.below(31))
            if !day.isValid { day = CivilDate(year: day.year, month: day.month, day: CivilDate.daysIn(month: day.month, year: day.year)) }
            let time = isDate ? 0 : random.below(24)
            // Move DTSTART to the first day that is an instance, so the plain expander takes the rule.
            var start = LocalDateTime(date: day, hour: time, minute: isDate ? 0 : 15 * random.below(4))
            for _ in 0..<800 where PlainRuleExpander(rule: rule, start: start, isDate: isDate) == nil {
                start.date = start.date.adding(days: 1)
            }
            // No wall-clock budget: a walk cut short by 250 ms on a busy machine would differ from the plain answer (issue #59, 15).
            let expander = RuleExpander(rule: rule, start: start, isDate: isDate, timeBudget: .seconds(3600))
            guard PlainRuleExpander(rule: rule, start: start, isDate: isDate) != nil else { continue }
            taken += 1
            for _ in 0..<3 {
                let from: LocalDateTime? = random.below(4) == 0 ? nil
                    : LocalDateTime(wallSeconds: start.wallSeconds + Int64(random.below(20 * 366) - 2 * 366) * 86_400 + Int64(random.below(86_400)))
                let span = Int64([3, 40, 400, 4_000][random.below(4)]) * 86_400
                let to = LocalDateTime(wallSeconds: (from ?? start).wallSeconds + span)
                let limit = [1, 8, 64, 500][random.below(4)]
                let plain = expander.expand(from: from, to: to, limit: limit)
                let general = expander.gregorianExpansion(from: from, to: to, limit: limit)
                #expect(plain == general, "seed \(seed) #\(iteration): \(rule) from \(start) isDate \(isDate), window \(String(describing: from))–\(to) limit \(limit)")
                compared += 1
            }
        }
        // Most random rules of these shapes are taken: the comparison is not of the general expander with itself.
        #expect(taken > Self.rulesPerSeed * 2 / 3, "only \(taken) rules taken")
        #expect(compared > Self.rulesPerSeed * 2)
    }

    @Test
    func leavesOtherShapesToTheGeneralExpander() throws {
        let start = LocalDateTime(year: 2026, month: 1, day: 5, hour: 9)   // a Monday
        for text in ["FREQ=WEEKLY;BYDAY=TU",                   // DTSTART is not an instance
                     "FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO,TU",     // BYSETPOS
                     "FREQ=YEARLY;BYDAY=1MO",                    // an ordinal through the year
                     "FREQ=YEARLY;BYWEEKNO=2;BYDAY=MO",
                     "FREQ=HOURLY",
                     "FREQ=WEEKLY;INTERVAL=2;WKST=SU",            // every other week from a Sunday's week
                     "FREQ=DAILY;BYHOUR=9,17",
                     "RSCALE=GREGORIAN;FREQ=YEARLY"] {
            let rule = try RecurrenceRule(parsing: text)
            #expect(PlainRuleExpander(rule: rule, start: start, isDate: false) == nil, "\(text)")
        }
        #expect(PlainRuleExpander(rule: try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10"), start: start, isDate: false) != nil)
        // An ordinal at Int.min is refused without trapping (it was abs()'d once).
        let huge = RecurrenceRule(parts: [.init(key: "FREQ", value: "MONTHLY"), .init(key: "BYDAY", value: "-9223372036854775808MO")])
        #expect(PlainRuleExpander(rule: huge, start: start, isDate: false) == nil)
    }

    /// The far end of a window: periods past year 9999 end the expansion instead of trapping.
    @Test
    func endsAtYear9999() throws {
        let rule = try RecurrenceRule(parsing: "FREQ=YEARLY;INTERVAL=32767")
        let start = LocalDateTime(year: 2000, month: 2, day: 29, hour: 12)
        let result = RuleExpander(rule: rule, start: start, isDate: false).expand(from: nil, to: LocalDateTime(year: 9999, month: 12, day: 31), limit: 10)
        #expect(result == .init(occurrences: [start], truncated: false))
    }

    static func randomRule(_ random: inout SplitMix, isDate: Bool) -> RecurrenceRule? {
        let frequency = ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"][random.below(4)]
        var parts = ["FREQ=\(frequency)"]
        if random.below(3) == 0 { parts.append("INTERVAL=\(1 + random.below(4))") }
        switch random.below(3) {
        case 0: parts.append("COUNT=\(1 + random.below(60))")
        case 1:
            let until = CivilDate(year: 1996 + random.below(45), month: 1 + random.below(12), day: 1 + random.below(28))
            parts.append("UNTIL=" + (isDate ? until.basic : LocalDateTime(date: until, hour: random.below(24)).basic))
        default: break
        }
        if random.below(4) == 0 { parts.append("WKST=" + codes[random.below(7)]) }
        let months = (0..<(1 + random.below(3))).map { _ in String(1 + random.below(12)) }.joined(separator: ",")
        let plainDays = (0..<(1 + random.below(3))).map { _ in codes[random.below(7)] }.joined(separator: ",")
        let ordinalDays = (0..<(1 + random.below(2))).map { _ in
            let ordinal = [1, 2, 3, 4, 5, -1, -2, -5, 0][random.below(9)]
            return (ordinal == 0 ? "" : String(ordinal)) + codes[random.below(7)]
        }.joined(separator: ",")
        let monthDays = (0..<(1 + random.below(3))).map { _ in
            let day = 1 + random.below(31)
            return String(random.below(4) == 0 ? -day : day)
        }.joined(separator: ",")
        switch frequency {
        case "DAILY":
            if random.below(3) == 0 { parts.append("BYDAY=" + plainDays) }
            if random.below(4) == 0 { parts.append("BYMONTH=" + months) }
        case "WEEKLY":
            if random.below(4) != 0 { parts.append("BYDAY=" + plainDays) }
            if random.below(5) == 0 { parts.append("BYMONTH=" + months) }
        case "MONTHLY":
            switch random.below(3) {
            case 0: parts.append("BYDAY=" + ordinalDays)
            case 1: parts.append("BYMONTHDAY=" + monthDays)
            default: break
            }
            if random.below(5) == 0 { parts.append("BYMONTH=" + months) }
        default:
            if random.below(2) == 0 {
                parts.append("BYMONTH=" + months)
                switch random.below(3) {
                case 0: parts.append("BYDAY=" + ordinalDays)
                case 1: parts.append("BYMONTHDAY=" + monthDays)
                default: break
                }
            }
        }
        // A rule the reader refuses (one that can never match, say) never reaches an expander.
        return try? RecurrenceRule(parsing: parts.joined(separator: ";"), lenient: true)
    }
}
