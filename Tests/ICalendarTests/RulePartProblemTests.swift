import Testing
@testable import ICalendar

/// Issue #40: a rule libical refuses is refused naming the part and the value,
/// not "libical rejects it"; one case per kind of part.
struct RulePartProblemTests {
    @Test(arguments: [
        ("FREQ=WEEKLY;BYDAY=XX", "BYDAY=XX: XX is not a weekday (MO TU WE TH FR SA SU"),
        ("FREQ=MONTHLY;BYDAY=MO,6XX", "BYDAY=MO,6XX: 6XX is not a weekday"),
        ("FREQ=MONTHLY;BYDAY=60MO", "BYDAY=60MO: 60 before MO is not a position (1 to 53"),
        // The smallest Int: a position it names must not trap on the way to its message.
        ("FREQ=MONTHLY;BYDAY=-9223372036854775808MO", "BYDAY=-9223372036854775808MO: -9223372036854775808 before MO is not a position"),
        ("FREQ=MINUTELY;BYMINUTE=60", "BYMINUTE=60: 60 is not a minute (0 to 59)"),
        ("FREQ=YEARLY;BYSETPOS=0;BYDAY=MO", "BYSETPOS=0: 0 is not a position in the set (1 to 366, or -1 to -366 from the end)"),
        ("FREQ=DAILY;BYHOUR=24", "BYHOUR=24: 24 is not an hour (0 to 23)"),
        ("FREQ=WEEKLY;WKST=XY", "WKST=XY: XY is not a weekday"),
    ])
    func aRefusedRuleNamesItsPart(rule: String, said: String) {
        #expect { try RecurrenceRule(parsing: rule) } throws: { error in
            "\(error)".hasPrefix(said)
        }
    }

    @Test func aRuleLibicalReadsIsNotJudgedHere() throws {
        for rule in ["FREQ=MONTHLY;BYDAY=-1FR", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1", "FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=2"] {
            _ = try RecurrenceRule(parsing: rule)
        }
    }
}
