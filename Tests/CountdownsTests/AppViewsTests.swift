import Foundation
import ICalendar
import Testing
@testable import Countdowns

/// What the web app's pages are computed from: task counts, the reading of a
/// rule, the agenda across feeds, and the statistics per category. Pure values
/// at an injected instant.
struct TaskCountsTests {
    /// Wednesday 2026-11-25, 10:00 in Berlin: the week ends on Sunday the 29th.
    static let now = "20261125T100000"

    static func task(_ due: DateTimeValue, _ title: String, status: CountdownStatus = .active) -> Countdown {
        var countdown = Countdown(uid: "task-\(title)", title: title, target: due, kind: .task)
        countdown.status = status
        return countdown
    }

    @Test func overdueTodayAndThisWeekFollowTheViewersDays() {
        let calculator = Make.calculator(Self.now, "Europe/Berlin")
        let tasks = [
            Self.task(Make.date("2026-11-24"), "yesterday"),
            Self.task(.zoned(LocalDateTime(parsing: "20261125T090000")!, tzid: "Europe/Berlin"), "an hour ago"),
            Self.task(.zoned(LocalDateTime(parsing: "20261125T180000")!, tzid: "Europe/Berlin"), "tonight"),
            Self.task(Make.date("2026-11-25"), "today"),
            Self.task(Make.date("2026-11-29"), "sunday"),
            Self.task(Make.date("2026-11-30"), "next monday"),
            Self.task(Make.date("2026-11-20"), "done long ago", status: .completed),
            Self.task(Make.date("2026-11-20"), "cancelled", status: .cancelled),
            Make.allDay("2026-11-20", title: "an event, not a task"),
        ]
        let rows = tasks.map { ($0, calculator.remaining(for: $0)) }
        let counts = TaskCounts(rows: rows, now: calculator.now)
        #expect(counts == TaskCounts(overdue: 2, dueToday: 2, dueThisWeek: 3, open: 6))
        #expect(rows.map { TaskCounts.due($0.0, $0.1, now: calculator.now)?.rawValue ?? "-" }
                    == ["overdue", "overdue", "today", "today", "thisWeek", "later", "-", "-", "-"])
    }

    @Test func onSundayTheWeekHasOnlyToday() {
        let calculator = Make.calculator("20261129T080000", "UTC")
        let rows = [Self.task(Make.date("2026-11-29"), "today"), Self.task(Make.date("2026-11-30"), "monday")].map { ($0, calculator.remaining(for: $0)) }
        #expect(TaskCounts(rows: rows, now: calculator.now) == TaskCounts(overdue: 0, dueToday: 1, dueThisWeek: 1, open: 2))
    }

    @Test func theJSONHasExactlyTheThreeDocumentedCounts() throws {
        let json = String(decoding: try JSONEncoder.tminus.encode(TaskCounts(overdue: 1, dueToday: 2, dueThisWeek: 3, open: 9)), as: UTF8.self)
        #expect(json == #"{"dueThisWeek":3,"dueToday":2,"overdue":1}"#)
    }

    @Test func tickingOffWritesWhatRFC5545Asks() {
        var task = Self.task(Make.date("2026-11-24"), "file taxes")
        task.complete(at: Make.instant("20261125T101530Z"))
        #expect(task.status == .completed && task.percentComplete == 100)
        #expect(task.completedAt == .utc(LocalDateTime(parsing: "20261125T101530")!))
        task.reopen()
        #expect(task.status == .active && task.percentComplete == nil && task.completedAt == nil)
    }
}

struct RuleReadingTests {
    static let start = CivilDate(year: 2026, month: 11, day: 23)

    @Test(arguments: [
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR", "Every 2 weeks on Monday and Friday"),
        ("FREQ=MONTHLY;BYDAY=-1FR", "Every month on the last Friday"),
        ("FREQ=MONTHLY;BYDAY=2TU;COUNT=10", "Every month on the 2nd Tuesday, 10 times"),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1", "Every year in February on the 28th and 29th, only the last of those"),
        ("FREQ=MONTHLY;BYMONTHDAY=-1", "Every month on the last day"),
        ("FREQ=DAILY;UNTIL=20270101T000000Z", "Every day, until 2027-01-01"),
        ("FREQ=YEARLY", "Every year, from 2026-11-23"),
        ("FREQ=WEEKLY;WKST=SU;BYHOUR=9", "Every week, with BYHOUR=9, from 2026-11-23"),
        ("RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD", "Every year of the Chinese calendar, from 2026-11-23"),
        ("RSCALE=HEBREW;FREQ=YEARLY;BYMONTH=5L;BYMONTHDAY=8;SKIP=FORWARD", "Every year of the Hebrew calendar in month 5L on the 8th"),
        ("RSCALE=ISLAMIC-CIVIL;FREQ=YEARLY;BYMONTH=9;BYMONTHDAY=1", "Every year of the Islamic Civil calendar in month 9 on the 1st"),
    ])
    func readsRulesAloud(rule: String, reading: String) {
        #expect(RuleReading.describe(rule, startingOn: Self.start) == reading)
    }

    @Test func anInvalidRuleReadsAsItsReason() {
        #expect(RuleReading.describe("FREQ=FORTNIGHTLY", startingOn: Self.start) == "Not a valid rule: FREQ=FORTNIGHTLY is not a frequency")
        #expect(RuleReading.describe("BYDAY=MO", startingOn: Self.start) == "Not a valid rule: FREQ is missing")
    }
}

struct AgendaTests {
    static let berlin = Zone.named("Europe/Berlin")!

    static func series(_ countdown: Countdown, at now: Date) -> CountdownSeries {
        CountdownSeries(countdown, preparedAt: now, floatingZone: berlin)
    }

    @Test func mergesFeedsByDayWithAlarmsAndStrikesCancelledInstances() throws {
        let now = Make.instant("20261123T080000Z")
        var standup = Make.zoned("20261102T093000", "Europe/Berlin", title: "Standup")
        standup.uid = "standup"
        standup.repeatRule = .rule("FREQ=WEEKLY;BYDAY=MO,WE")
        standup.alarms = [ICalDuration(seconds: 600, isNegative: true)]
        standup.categories = ["Work"]
        // The Wednesday instance is cancelled by an override.
        let calendar = try ICalendarParser.parse("""
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:standup\r\nDTSTAMP:20260101T000000Z\r\n\
            RECURRENCE-ID;TZID=Europe/Berlin:20261125T093000\r\nDTSTART;TZID=Europe/Berlin:20261125T093000\r\nSUMMARY:Standup\r\n\
            STATUS:CANCELLED\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """).calendar
        standup.overrides = calendar.events.map(\.component)
        var trip = Make.allDay("2026-11-24", title: "Trip")
        trip.uid = "trip"
        var task = Countdown(uid: "bill", title: "Pay rent", target: Make.date("2026-11-26"), kind: .task)
        task.status = .active
        let agenda = Agenda(feeds: [
            .init(slug: "work", name: "Work", color: "#111111", categoryColors: ["Work": "#FF0000"], series: [Self.series(standup, at: now)]),
            .init(slug: "home", name: "Home", color: "#222222", categoryColors: [:], series: [Self.series(trip, at: now), Self.series(task, at: now)]),
        ], from: CivilDate(year: 2026, month: 11, day: 23), dayCount: 4, zone: Self.berlin, now: now)

        #expect(agenda.days.map(\.date.iso) == ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26"])
        #expect(agenda.days.map(\.isToday) == [true, false, false, false])
        let monday = agenda.days[0].entries
        #expect(monday.map(\.kind) == [.alarm, .event] && monday.map(\.time) == ["09:20", "09:30"])
        #expect(monday.allSatisfy { $0.color == "#FF0000" && $0.feedName == "Work" }, "the category colour wins over the feed's")
        #expect(agenda.days[1].entries.map(\.title) == ["Trip"] && agenda.days[1].entries[0].time == nil && agenda.days[1].entries[0].color == "#222222")
        let wednesday = agenda.days[2].entries
        #expect(wednesday.count == 1 && wednesday[0].cancelled && wednesday[0].kind == .event, "cancelled: listed, marked, and no alarm")
        #expect(agenda.days[3].entries.map(\.kind) == [.task])
    }

    @Test func todayIsListedEvenWhenNothingHappens() {
        let now = Make.instant("20261123T080000Z")
        let agenda = Agenda(feeds: [], from: CivilDate(year: 2026, month: 11, day: 23), dayCount: 7, zone: Self.berlin, now: now)
        #expect(agenda.days.map(\.date.iso) == ["2026-11-23"] && agenda.days[0].entries.isEmpty && agenda.days[0].isToday)
    }
}

struct CategoryStatisticsTests {
    static let utc = Zone.utc

    @Test func spansSplitIntoBars() {
        let day = CivilDate(year: 2026, month: 11, day: 25)
        let week = CategoryStatistics.Span(.week, containing: day)
        #expect(week.start.iso == "2026-11-23" && week.end.iso == "2026-11-30" && week.buckets.count == 7)
        let month = CategoryStatistics.Span(.month, containing: day)
        #expect(month.start.iso == "2026-11-01" && month.end.iso == "2026-12-01")
        #expect(month.buckets.map(\.start.iso) == ["2026-11-01", "2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23", "2026-11-30"])
        let year = CategoryStatistics.Span(.year, containing: day)
        #expect(year.buckets.count == 12 && year.buckets[1].end.iso == "2026-03-01")
        #expect(month.moved(by: 2).start.iso == "2027-01-01" && month.moved(by: -11).start.iso == "2025-12-01")
        #expect(week.moved(by: -1).start.iso == "2026-11-16" && year.moved(by: 1).start.iso == "2027-01-01")
    }

    @Test func countsOccurrencesPerCategoryAndFindsTheLongestCountUp() {
        let now = Make.instant("20261125T120000Z")
        var gym = Make.allDay("2026-11-02", repeat: .rule("FREQ=WEEKLY;BYDAY=MO,TH"), title: "Gym")
        gym.categories = ["Health"]
        var quit = Make.allDay("2025-01-01", title: "No smoking")
        quit.uid = "quit"
        quit.direction = .up
        quit.categories = ["Health"]
        var sober = Make.allDay("2026-06-01", title: "Sober")
        sober.uid = "sober"
        sober.direction = .up
        sober.categories = ["Health"]
        let loose = Make.allDay("2026-11-10", title: "Loose")
        let feeds = [Agenda.FeedSeries(slug: "me", name: "Me", color: nil, categoryColors: ["Health": "#00AA00"],
                                       series: [gym, quit, sober, loose].map { CountdownSeries($0, preparedAt: now, floatingZone: Self.utc) })]
        let stats = CategoryStatistics(feeds: feeds, span: .init(.month, containing: CivilDate(year: 2026, month: 11, day: 1)), zone: Self.utc, now: now)
        #expect(stats.categories.map(\.name) == ["Health", CategoryStatistics.uncategorised])
        let health = stats.categories[0]
        // Mondays and Thursdays of November 2026: 2, 5, 9, 12, 16, 19, 23, 26, 30.
        #expect(health.occurrences == 9 && health.perBucket == [0, 2, 2, 2, 2, 1] && health.color == "#00AA00")
        #expect(health.longestCountUp?.title == "No smoking" && health.longestCountUp?.days == 693)
        #expect(stats.categories[1].occurrences == 1)
    }
}
