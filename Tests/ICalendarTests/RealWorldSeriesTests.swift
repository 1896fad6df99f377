import Foundation
import Testing
@testable import ICalendar

/// One regression test per way real exports (Google, Outlook/Exchange,
/// Nextcloud, Thunderbird) expanded wrongly, each on its fixture in
/// `Fixtures/realworld/`. Each instance must come out exactly once, where the
/// latest edit puts it. `ReferenceAgreementTests` checks the same files against
/// recurring-ical-events; these pin tminus's answer without python.
struct RealWorldSeriesTests {
    /// "start summary" per occurrence in 2026–2027, starts in UTC (dates for all-day),
    /// cancelled ones marked, in order.
    static func rows(_ fixture: String, cancelled: OccurrenceExpander.Cancelled = .skip) throws -> [String] {
        let calendar = try ICalendarParser.parse(contentsOf: Fixtures.url("realworld/" + fixture)).calendar
        let window = DateInterval(start: Fixtures.instant("20260101T000000Z"), end: Fixtures.instant("20280101T000000Z"))
        return OccurrenceExpander(calendar: calendar, cancelled: cancelled)
            .occurrences(in: calendar, in: window, limit: 1_000).occurrences.map { occurrence in
                let start = occurrence.isAllDay ? occurrence.start.civilDate.iso : Zone.utc.local(of: occurrence.startInstant).iso + "Z"
                return "\(start) \(occurrence.summary ?? "")" + (occurrence.isCancelled ? " [cancelled]" : "")
            }
    }

    @Test func overrideOfAnRDateReplacesItOnce() throws {
        #expect(try Self.rows("override-on-rdate.ics") == [
            "2026-03-02T18:00:00Z Choir", "2026-03-06T17:00:00Z Choir (extra rehearsal, moved)",
            "2026-03-09T18:00:00Z Choir", "2026-03-16T18:00:00Z Choir", "2026-03-23T18:00:00Z Choir",
        ])
    }

    /// A documented choice: the override is the later, more specific edit.
    @Test func overrideOfAnExcludedInstanceIsShownAtItsNewTime() throws {
        #expect(try Self.rows("override-on-exdate.ics") == [
            "2026-03-02T09:00:00Z Team sync", "2026-03-10T09:00:00Z Team sync (moved to Tuesday)",
            "2026-03-16T09:00:00Z Team sync", "2026-03-23T09:00:00Z Team sync",
        ])
    }

    @Test func overrideOfAnInstanceTheRuleDoesNotProduceIsAdded() throws {
        let rows = try Self.rows("override-outside-rule.ics")
        #expect(rows.count == 5)
        #expect(rows.contains("2026-03-04T17:00:00Z Swimming (extra Wednesday)"))
    }

    @Test func rdateEqualToAnOverriddenInstanceComesOutOnce() throws {
        #expect(try Self.rows("rdate-equals-override.ics") == [
            "2026-03-03T18:00:00Z Reading group", "2026-03-10T17:30:00Z Reading group (at the library)",
            "2026-03-17T18:00:00Z Reading group",
        ])
    }

    @Test func overridesWithoutTheirMasterAreKept() throws {
        #expect(try Self.rows("only-overrides.ics") == [
            "2026-04-06T13:30:00Z Standup (the series was deleted, this instance was kept)",
            "2026-04-13T13:00:00Z Standup (kept too)",
        ])
    }

    @Test func twoOverridesOfOneInstanceTheLatestEditWins() throws {
        #expect(try Self.rows("duplicate-overrides.ics") == [
            "2026-03-01T16:00:00Z Book club", "2026-03-08T18:00:00Z Book club (second edit wins)",
            "2026-03-15T14:00:00Z Book club (later copy wins)", "2026-03-22T16:00:00Z Book club",
        ])
    }

    @Test func thisAndFutureShiftsEveryLaterInstance() throws {
        let rows = try Self.rows("thisandfuture-shift.ics")
        #expect(rows == [
            "2026-03-02T09:00:00Z Yoga", "2026-03-09T09:00:00Z Yoga", "2026-03-16T09:00:00Z Yoga",
            "2026-03-24T13:00:00Z Yoga (new studio)",
            // Tuesday 14:00 in Budapest from here on: the wall-clock shift survives the DST change of 29 March.
            "2026-03-31T12:00:00Z Yoga (new studio)", "2026-04-07T12:00:00Z Yoga (new studio)",
            "2026-04-14T12:00:00Z Yoga (new studio)", "2026-04-21T12:00:00Z Yoga (new studio)",
        ])
    }

    @Test func thisAndFutureAppliesUntilTheNextOne() throws {
        let rows = try Self.rows("thisandfuture-twice.ics")
        #expect(rows == [
            "2026-01-05 Bin collection", "2026-01-12 Bin collection", "2026-01-19 Bin collection", "2026-01-26 Bin collection",
            "2026-02-03 Bin collection (now Tuesdays)", "2026-02-10 Bin collection (now Tuesdays)",
            "2026-02-17 Bin collection (now Tuesdays)", "2026-02-24 Bin collection (now Tuesdays)",
            "2026-03-04 Bin collection (Wednesdays from March)", "2026-03-11 Bin collection (Wednesdays from March)",
            "2026-03-19 Bin collection (bank holiday, Thursday)", "2026-03-25 Bin collection (Wednesdays from March)",
            "2026-04-01 Bin collection (Wednesdays from March)",
        ])
    }

    @Test func exdatesInAnotherValueFormStillRemoveTheirInstance() throws {
        let rows = try Self.rows("exdate-value-forms.ics")
        #expect(!rows.contains { $0.hasPrefix("2026-06-03T05:00:00Z") }, "DATE against DATE-TIME")
        #expect(!rows.contains { $0.hasPrefix("2026-06-08T14:00:00Z") }, "UTC against zoned")
        #expect(!rows.contains { $0.hasPrefix("2026-06-09T13:00:00Z") }, "another TZID, same instant")
        #expect(!rows.contains { $0.hasPrefix("2026-06-11 ") }, "Outlook's UTC EXDATE on an all-day series")
        #expect(rows.count == 17 - 4)
    }

    @Test func ruleWithCountAndUntilOrCountZeroIsReadLeniently() throws {
        #expect(try Self.rows("rule-count-and-until.ics") == [
            "2026-04-01T08:00:00Z Physio (rule with COUNT and UNTIL)", "2026-04-02T08:00:00Z Physio (rule with COUNT and UNTIL)",
            "2026-04-03T08:00:00Z Physio (rule with COUNT and UNTIL)", "2026-05-01T08:00:00Z Checkup (COUNT=0)",
            "2026-06-10 Inspection (COUNT=0, no UNTIL)",
        ])
        #expect(try Self.rows("rule-count-negative.ics") == [
            "2026-08-15 Anniversary (COUNT=-1)", "2027-08-15 Anniversary (COUNT=-1)",
        ])
    }

    @Test func endBeforeStartIsSwapped() throws {
        let calendar = try ICalendarParser.parse(contentsOf: Fixtures.url("realworld/dtend-before-dtstart.ics")).calendar
        let window = DateInterval(start: Fixtures.instant("20260101T000000Z"), end: Fixtures.instant("20280101T000000Z"))
        let occurrence = try #require(OccurrenceExpander(calendar: calendar).occurrences(in: calendar, in: window, limit: 10).occurrences.first)
        #expect(occurrence.startInstant == Fixtures.instant("20260512T120000Z"))
        #expect(occurrence.endInstant == Fixtures.instant("20260512T130000Z"))
    }

    @Test func unclosedLastComponentIsClosedAndKept() throws {
        let result = try ICalendarParser.parse(contentsOf: Fixtures.url("realworld/unclosed-component.ics"))
        #expect(result.errors.count == 1)
        #expect(try Self.rows("unclosed-component.ics") == [
            "2026-06-12 Sports day (its END:VEVENT is missing)", "2026-10-14T17:00:00Z Parents' evening",
        ])
    }

    @Test func dateTimeRDateOnAnAllDaySeriesNamesItsDay() throws {
        #expect(try Self.rows("rdate-datetime-on-date.ics") == [
            "2026-07-04 Market day", "2026-07-20 Market day", "2026-08-04 Market day", "2026-09-04 Market day",
        ])
    }

    @Test func cancelledEventsAreSkippedForCountdownsAndListedWhenAsked() throws {
        #expect(try Self.rows("cancelled.ics") == [
            "2026-09-01T15:00:00Z Football training", "2026-09-15T15:00:00Z Football training",
        ])
        #expect(try Self.rows("cancelled.ics", cancelled: .include) == [
            "2026-09-01T15:00:00Z Football training", "2026-09-08T15:00:00Z Football training [cancelled]",
            "2026-09-15T15:00:00Z Football training", "2026-09-18T17:30:00Z Concert (cancelled) [cancelled]",
        ])
    }
}
