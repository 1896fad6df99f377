import Testing
@testable import ICalendar

/// The shapes issue #61 found wrong, refused or missing, one test per cause, with
/// python-dateutil's instances (the rule's own set: the series adds DTSTART,
/// 1997-09-02T09:00, floating, in front when it is not among them).
struct RuleShapeRegressionTests {
    static let start = LocalDateTime(year: 1997, month: 9, day: 2, hour: 9)

    static func instances(_ text: String, from start: LocalDateTime = start) throws -> [String] {
        let rule = try RecurrenceRule(parsing: text)
        #expect(UnreachableRule.problem(with: rule, from: .floating(start)) == nil, "\(text) is reachable")
        return RuleExpander(rule: rule, start: start, isDate: false, timeBudget: .seconds(3600))
            .expand(from: nil, to: LocalDateTime(year: 2030, month: 1, day: 1), limit: 100).occurrences.map(\.basic)
    }

    /// 1. BYHOUR, BYMINUTE and BYSECOND expand a DAILY rule: a twice-daily medicine reminder.
    @Test func dailyRulesWithTimesOfDayAreExpandedNotRefused() throws {
        #expect(try Self.instances("FREQ=DAILY;COUNT=3;BYHOUR=6,18") == ["19970902T180000", "19970903T060000", "19970903T180000"])
        #expect(try Self.instances("FREQ=DAILY;COUNT=3;BYMINUTE=6,18") == ["19970902T090600", "19970902T091800", "19970903T090600"])
        #expect(try Self.instances("FREQ=DAILY;COUNT=3;BYSECOND=6,18") == ["19970902T090006", "19970902T090018", "19970903T090006"])
        #expect(try Self.instances("FREQ=DAILY;COUNT=3;BYSETPOS=-1;BYHOUR=6,18") == ["19970902T180000", "19970903T180000", "19970904T180000"])
    }

    /// 2. Sparse MINUTELY and SECONDLY rules, and an INTERVAL above libical's 32767, are computed.
    @Test func sparseMinutelyAndSecondlyRulesAreComputed() throws {
        #expect(try Self.instances("FREQ=MINUTELY;COUNT=3;BYMONTH=1,3") == ["19980101T000000", "19980101T000100", "19980101T000200"])
        #expect(try Self.instances("FREQ=SECONDLY;COUNT=3;BYDAY=TU,TH") == ["19970902T090000", "19970902T090001", "19970902T090002"])
        #expect(try Self.instances("FREQ=SECONDLY;COUNT=3;INTERVAL=90061") == ["19970902T090000", "19970903T100101", "19970904T110202"])
    }

    /// 3. A YEARLY BYMONTHDAY without BYMONTH falls in every month; BYWEEKNO without BYDAY is the whole week.
    @Test func yearlyDayPartsWithoutMonthOrWeekdayExpand() throws {
        #expect(try Self.instances("FREQ=YEARLY;COUNT=3;BYMONTHDAY=1,3") == ["19970903T090000", "19971001T090000", "19971003T090000"])
        #expect(try Self.instances("FREQ=YEARLY;COUNT=3;BYWEEKNO=20") == ["19980511T090000", "19980512T090000", "19980513T090000"])
        #expect(try Self.instances("FREQ=YEARLY;COUNT=3;BYSETPOS=3,-3;BYMONTHDAY=15;BYHOUR=6,18") == ["19971115T180000", "19980215T060000", "19981115T180000"])
    }

    /// 4. BYMONTH limits BYYEARDAY's days in a YEARLY rule, from off the rule and on it.
    @Test func yearlyByMonthWithByYearDayYieldsTheDaysInThoseMonths() throws {
        let expected = ["19980410T090000", "19980719T090000", "19990410T090000", "19990719T090000"]
        #expect(try Self.instances("FREQ=YEARLY;COUNT=4;BYMONTH=4,7;BYYEARDAY=1,100,200,365") == expected)
        #expect(try Self.instances("FREQ=YEARLY;COUNT=4;BYMONTH=4,7;BYYEARDAY=1,100,200,365", from: LocalDateTime(year: 1998, month: 4, day: 10, hour: 9)) == expected)
    }

    /// 5. After a DTSTART off the rule, the rule's first instance is not skipped.
    @Test func theFirstInstanceAfterAnOffRuleStartIsKept() throws {
        #expect(try Self.instances("FREQ=MINUTELY;COUNT=3;BYMINUTE=6,18") == ["19970902T090600", "19970902T091800", "19970902T100600"])
        #expect(try Self.instances("FREQ=SECONDLY;COUNT=3;BYSECOND=6,18") == ["19970902T090006", "19970902T090018", "19970902T090106"])
        #expect(try Self.instances("FREQ=HOURLY;COUNT=3;BYHOUR=10,18") == ["19970902T100000", "19970902T180000", "19970903T100000"])
    }

    /// The whole series of item 1 as a calendar shows it: DTSTART, then the rule's three.
    @Test func theSeriesPutsDTSTARTFirst() throws {
        let starts = try RecurringSeriesFixture.expand("DTSTART:19970902T090000\nRRULE:FREQ=DAILY;COUNT=3;BYHOUR=6,18",
                                                       from: "19970901T000000Z", to: "19970910T000000Z")
        #expect(starts == ["1997-09-02T09:00:00Z", "1997-09-02T18:00:00Z", "1997-09-03T06:00:00Z", "1997-09-03T18:00:00Z"])
    }

    /// An INTERVAL that never meets BYHOUR (dateutil: "generates an empty set") is
    /// proved unreachable from the residues of the step, not walked to year 9999.
    @Test func anIntervalThatNeverMeetsTheTimeLimitsIsUnreachable() throws {
        let rule = try RecurrenceRule(parsing: "FREQ=HOURLY;INTERVAL=2;BYHOUR=4,6")
        #expect(UnreachableRule.problem(with: rule, from: .floating(Self.start))
                == "FREQ=HOURLY;INTERVAL=2 from DTSTART 09:00:00 never reaches a time of day that BYHOUR=4,6 allows, so only DTSTART happens",
                "from 09:00 every other hour is odd")
        #expect(UnreachableRule.problem(with: try RecurrenceRule(parsing: "FREQ=HOURLY;INTERVAL=2;BYHOUR=3,6"), from: .floating(Self.start)) == nil)
        #expect(UnreachableRule.problem(with: try RecurrenceRule(parsing: "FREQ=MINUTELY;INTERVAL=120;BYHOUR=10"), from: .floating(Self.start)) != nil)
        #expect(UnreachableRule.problem(with: try RecurrenceRule(parsing: "FREQ=SECONDLY;INTERVAL=30;BYSECOND=15"), from: .floating(Self.start)) != nil)
        #expect(UnreachableRule.problem(with: try RecurrenceRule(parsing: "FREQ=SECONDLY;INTERVAL=30;BYSECOND=30"), from: .floating(Self.start)) == nil)
    }

    /// Found by FuzzRecurrenceRule: `BYSETPOS=-1;FREQ=SECONDLY` on an all-day start
    /// made each day's 86,400 seconds into the same date, one at a time (over a
    /// minute for a thousand days). An all-day day is now its first aligned period.
    @Test func allDaySecondlyRulesTakeOneStepADay() throws {
        let rule = try RecurrenceRule(parsing: "BYSETPOS=-1;FREQ=SECONDLY")
        let start = LocalDateTime(year: 2026, month: 3, day: 1)
        let found = RuleExpander(rule: rule, start: start, isDate: true, timeBudget: .seconds(3600))
            .expand(from: nil, to: LocalDateTime(year: 2040, month: 1, day: 1), limit: 1_000)
        #expect(found.occurrences.count == 1_000 && found.truncated)
        #expect(found.occurrences.last == LocalDateTime(date: start.date.adding(days: 999)))
    }

    /// Found by FuzzRecurrenceRule's invariants: an RSCALE rule answered with a
    /// DTSTART already past its UNTIL. Like a Gregorian rule's, its set is then
    /// empty (the series still shows DTSTART).
    @Test func aStartPastUntilIsNoInstanceOfAnRscaleRule() throws {
        let rule = try RecurrenceRule(parsing: "RSCALE=CHINESE;FREQ=YEARLY;UNTIL=20290213")
        let start = LocalDateTime(year: 2040, month: 2, day: 12, hour: 9)
        #expect(RuleExpander(rule: rule, start: start, isDate: false).expand(from: nil, to: LocalDateTime(year: 2050, month: 1, day: 1), limit: 10).occurrences.isEmpty)
        #expect(RuleExpander(rule: rule, start: LocalDateTime(year: 2026, month: 2, day: 17), isDate: true)
            .expand(from: nil, to: LocalDateTime(year: 2050, month: 1, day: 1), limit: 10).occurrences.count == 4, "2026 to 2029")
    }
}
