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

    /// Issue #23 reversed issue #10's rule: a person moved an instance, then
    /// deleted it; the client added the EXDATE and left the override behind.
    @Test func anExcludedInstanceStaysDeletedThoughItsOverrideIsLeft() throws {
        #expect(try Self.rows("override-on-exdate.ics") == [
            "2026-03-02T09:00:00Z Team sync", "2026-03-16T09:00:00Z Team sync", "2026-03-23T09:00:00Z Team sync",
        ])
    }

    /// The issue's own example: the master (SEQUENCE 3) was edited after the override (SEQUENCE 2).
    @Test func aDeletedInstanceBeatsAnOlderOverride() throws {
        #expect(try Self.rows("deleted-instance-older-override.ics") == [
            "2026-07-06 Piano lesson", "2026-08-03 Piano lesson", "2026-08-17 Piano lesson", "2026-08-31 Piano lesson",
        ])
    }

    /// A client that never bumps SEQUENCE: the EXDATE still wins.
    @Test func aDeletedInstanceBeatsAnOverrideOfTheSameSequence() throws {
        #expect(try Self.rows("deleted-instance-same-sequence.ics") == [
            "2026-07-07T17:30:00Z Running club", "2026-07-21T17:30:00Z Running club",
            "2026-07-28T17:30:00Z Running club", "2026-08-04T17:30:00Z Running club",
        ])
    }

    /// Two copies of the master: the higher SEQUENCE stands for the series (it
    /// comes first here), and its EXDATE drops the stale copy's override too.
    @Test func theNewestCopyOfAMasterStandsForTheSeries() throws {
        #expect(try Self.rows("duplicate-masters.ics") == [
            "2026-07-06T15:00:00Z Swim squad (edited)", "2026-07-20T15:00:00Z Swim squad (edited)",
            "2026-07-27T15:00:00Z Swim squad (edited)",
        ])
        let result = try ICalendarParser.parse(contentsOf: Fixtures.url("realworld/duplicate-masters.ics"))
        let ignored = result.warnings.filter { $0.message.contains("older copy") }
        #expect(ignored.map(\.line) == [14], "\(result.diagnostics)")
        #expect(ignored.first?.message.contains("the copy at line 4 is newer (SEQUENCE 3 against 2)") == true, "\(ignored)")
    }

    /// One SEQUENCE: the later LAST-MODIFIED, then the later DTSTAMP, then the
    /// last copy in the file (documented choices: the reference keeps the first).
    @Test func copiesOfOneSequenceAreToldApartByTheirStampsThenByOrder() throws {
        #expect(try Self.rows("duplicate-masters-last-modified.ics") == [
            "2026-07-07T17:30:00Z Choir (newer copy)", "2026-07-21T17:30:00Z Choir (newer copy)",
        ])
        #expect(try Self.rows("duplicate-masters-dtstamp.ics") == [
            "2026-07-09 Scouts (newer copy)", "2026-07-16 Scouts (newer copy)", "2026-07-23 Scouts (newer copy)",
        ])
        #expect(try Self.rows("duplicate-masters-tie.ics") == ["2026-07-11 Book swap (last copy)", "2026-08-11 Book swap (last copy)"])
        let reasons = try ["duplicate-masters-last-modified.ics", "duplicate-masters-dtstamp.ics", "duplicate-masters-tie.ics"].map {
            try ICalendarParser.parse(contentsOf: Fixtures.url("realworld/" + $0)).warnings.map(\.message)
        }
        #expect(reasons[0].contains { $0.hasSuffix("(a later LAST-MODIFIED)") }, "\(reasons[0])")
        #expect(reasons[1].contains { $0.hasSuffix("(a later DTSTAMP)") }, "\(reasons[1])")
        #expect(reasons[2].contains { $0.hasSuffix("(it comes later in the file, and nothing else tells them apart)") }, "\(reasons[2])")
    }

    /// Outlook names an instance of an all-day series by local midnight in a
    /// Windows zone (`RECURRENCE-ID;TZID=GMT Standard Time:20260416T000000`):
    /// it replaces the 16th, matched by date, instead of adding the 17th beside it.
    @Test func anAllDayOverrideNamedByZonedMidnightReplacesItsDay() throws {
        #expect(try Self.rows("allday-override-zoned-midnight.ics") == [
            "2026-04-02 Recycling", "2026-04-17 Recycling (moved to Friday)", "2026-04-30 Recycling",
            "2026-05-14 Recycling", "2026-05-28 Recycling",
        ])
    }

    /// Exchange 2007: `TZID:Kuala Lumpur\, Singapore` in the VTIMEZONE and
    /// `TZID="Kuala Lumpur, Singapore"` on the times name the same zone.
    @Test func anEscapedZoneNameMatchesItsQuotedReference() throws {
        #expect(try Self.rows("exchange-escaped-tzid.ics") == ["2026-10-31T01:30:00Z Quarterly review"])
        let result = try ICalendarParser.parse(contentsOf: Fixtures.url("realworld/exchange-escaped-tzid.ics"))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    }

    /// `END:VTOOD` closed nothing, so every later component nested inside the
    /// task until the file was refused as nested too deep.
    @Test func aMisspeltEndClosesItsComponentAndTheRestIsRead() throws {
        let result = try ICalendarParser.parse(contentsOf: Fixtures.url("realworld/misspelt-end.ics"))
        #expect(result.errors.map(\.description) == [
            "line 16, VTODO (UID typo-todo): error: END:VTOOD matches no open component; read as END:VTODO (BEGIN at line 10)",
        ])
        #expect(try Self.rows("misspelt-end.ics") == ["2026-03-10 Before the typo", "2026-03-12 Hand in the essay", "2026-03-20 After the typo"])
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
