import Foundation
import Testing
import TestSupport
@testable import ICalendar

/// A hundred years of lunar and religious dates, expanded by tminus (ICU
/// through Foundation) and converted by PyPI's lunardate and convertdate
/// (Tests/interop/calendar_dates.py), which share no code with ICU. Each case's
/// first date is its DTSTART; the whole list must agree.
@Suite(.enabled(if: PythonChecker.available, "python checkers not installed (run make test)"))
struct RscaleAgreementTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var rule: String
        var request: [String: any Sendable]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "Chinese New Year 2000-2099", rule: "RSCALE=CHINESE;FREQ=YEARLY",
             request: ["kind": "chineseNewYear", "years": [2000, 2099]]),
        Case(name: "Chinese leap fourth month, SKIP=BACKWARD", rule: "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD",
             request: ["kind": "chineseLeapMonth", "years": [2020, 2099], "month": 4, "day": 10, "skip": "BACKWARD"]),
        Case(name: "Chinese leap fourth month, SKIP=FORWARD", rule: "RSCALE=CHINESE;FREQ=YEARLY;SKIP=FORWARD",
             request: ["kind": "chineseLeapMonth", "years": [2020, 2099], "month": 4, "day": 10, "skip": "FORWARD"]),
        Case(name: "Chinese leap fourth month, SKIP=OMIT", rule: "RSCALE=CHINESE;FREQ=YEARLY",
             request: ["kind": "chineseLeapMonth", "years": [2020, 2099], "month": 4, "day": 10, "skip": "OMIT"]),
        Case(name: "Hebrew birthday on 8 Adar I", rule: "RSCALE=HEBREW;FREQ=YEARLY;BYMONTH=5L;BYMONTHDAY=8;SKIP=FORWARD",
             request: ["kind": "hebrew", "years": [5784, 5883], "month": "5L", "day": 8, "skip": "FORWARD"]),
        Case(name: "Hebrew birthday on 14 Adar (Adar II in leap years)", rule: "RSCALE=HEBREW;FREQ=YEARLY",
             request: ["kind": "hebrew", "years": [5785, 5884], "month": "6", "day": 14, "skip": "OMIT"]),
        Case(name: "Hebrew birthday on 30 Heshvan, SKIP=BACKWARD", rule: "RSCALE=HEBREW;FREQ=YEARLY;SKIP=BACKWARD",
             request: ["kind": "hebrew", "years": [5785, 5884], "month": "2", "day": 30, "skip": "BACKWARD"]),
        Case(name: "Hebrew birthday on 30 Heshvan, SKIP=FORWARD", rule: "RSCALE=HEBREW;FREQ=YEARLY;SKIP=FORWARD",
             request: ["kind": "hebrew", "years": [5785, 5884], "month": "2", "day": 30, "skip": "FORWARD"]),
        Case(name: "Ramadan starts 1421-1520", rule: "RSCALE=ISLAMIC-CIVIL;FREQ=YEARLY;BYMONTH=9;BYMONTHDAY=1",
             request: ["kind": "islamic", "years": [1421, 1520], "month": 9, "day": 1]),
    ]

    @Test(arguments: cases)
    func agreesWithLunardateAndConvertdate(_ check: Case) async throws {
        let script = Corpus.packageRoot.appendingPathComponent("Tests/interop/calendar_dates.py").path
        let answer = try await PythonChecker.run(["cases": [check.request]], script: script)
        let expected = try #require((answer["dates"] as? [[String]])?.first)
        try #require(expected.count >= 5, "\(check): the converters gave \(expected.count) dates")
        let first = try #require(CivilDate(parsing: expected[0].replacingOccurrences(of: "-", with: "")))
        let last = try #require(CivilDate(parsing: expected[expected.count - 1].replacingOccurrences(of: "-", with: "")))
        let found = try RecurringSeriesFixture.expand("DTSTART;VALUE=DATE:\(first.basic)\nRRULE:\(check.rule)",
                                                      from: first.basic + "T000000Z", to: last.adding(days: 1).basic + "T000000Z")
        let difference = zip(found, expected).first { $0 != $1 }.map { "tminus \($0), converters \($1)" } ?? "\(found.count) against \(expected.count) dates"
        #expect(found == expected, "\(check): \(difference)")
    }
}
