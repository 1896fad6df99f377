import Foundation
import ICalendar

/// The countdown calendar: one all-day event per day before each target
/// ("🎄 Christmas — 33 days"), or only on milestone days. Each day's event has
/// its own stable UID and a fixed title, so a client that refreshes rarely still
/// shows the right number on every day it has. Days are the feed's days.
///
/// Clients refuse big subscriptions (Google stops at about 1 MB), so the calendar
/// holds at most `maxEvents` events: the nearest countdowns keep every day, farther
/// ones fall back to milestone days, then to the target day alone, and the
/// calendar's description says so.
public struct CountdownCalendar: Sendable {
    public let feed: Feed
    public let today: CivilDate
    public let zone: Zone
    /// For countdowns shown in working days ("— 12 working days").
    public let workingDays: WorkingDays
    /// The language of the titles ("Anna's birthday — 3 Tage").
    public let language: Language

    /// About 900 KB of events: what every client we know accepts.
    public static let defaultMaxEvents = 2_000

    /// The byte budget of the events, whatever `maxEvents` says: Google stops
    /// reading at about 1 MB, and a title of 30 KB made 2,000 events 62 MB
    /// (issue #27). Titles are capped too (`SafeText.maxTitleCharacters`).
    public static let maxBytes = 900_000

    /// `today` is the current date in the feed's zone; rendering depends on
    /// nothing else but the feed's working days.
    public init(feed: Feed, today: CivilDate, zone: Zone, workingDays: WorkingDays = .standard, language: Language = .english) {
        self.feed = feed
        self.today = today
        self.zone = zone
        self.workingDays = workingDays
        self.language = language
    }

    /// How much of a countdown's run-up the calendar shows.
    public enum Detail: Int, Sendable, Comparable, CaseIterable {
        /// Every day the feed's mode asks for.
        case full
        /// Milestone days only (100, 50, 30, 14, 7, 3, 2, 1 days and the day itself).
        case milestones
        /// The target day alone.
        case targetDay
        /// Nothing: the calendar was full.
        case none

        public static func < (a: Detail, b: Detail) -> Bool { a.rawValue < b.rawValue }
    }

    /// The calendar, and how many countdowns were shown at each detail.
    public struct Result: Sendable {
        public var calendar: VCalendar
        public var detail: [Detail: Int]
        /// True when some countdown is shown with less than full detail.
        public var isReduced: Bool { detail.contains { $0.key != .full && $0.value > 0 } }
    }

    /// How many days ahead the calendar is published. Events exist only within N
    /// days of a target (or on milestones), so a year ahead costs little and lets a
    /// client that refreshes rarely still have every day it will show.
    var horizon: Int {
        switch feed.countdownMode {
        case .daily(let days): max(366, min(days, 3_660))
        case .milestones(let days): max(366, min((days.max() ?? 100) + 1, 3_660))
        }
    }

    public func calendar(for series: [CountdownSeries]) -> Result {
        var gathering = Gathering(self)
        gathering.add(series)
        let allotment = gathering.allot()
        return calendar(gathering, allotment, shown: series.filter { allotment.showsEvents(of: $0.countdown.uid) })
    }

    /// What the calendar must know of every countdown before it can choose
    /// which to show and how (`allot`), gathered a batch of series at a time:
    /// a few numbers per countdown, not its series, so that a feed too large
    /// to compile is read in batches (issue #41). The events are then written
    /// from the series of the countdowns shown only.
    public struct Gathering: Sendable {
        /// The calendar gathered for, which writes it (`calendar(_:_:shown:)`).
        public let calendar: CountdownCalendar
        let last: CivilDate
        fileprivate var candidates: [Candidate] = []
        /// Celebrated days, at most the `countdownMaxEvents` first (the room left is never more).
        fileprivate var celebrated: [Celebrated] = []

        public init(_ calendar: CountdownCalendar) {
            self.calendar = calendar
            last = calendar.today.adding(days: calendar.horizon)
        }

        /// Notes `series` (any order; each countdown once over all batches).
        public mutating func add(_ series: [CountdownSeries]) {
            for one in series {
                if let plan = calendar.plan(one, through: last) {
                    candidates.append(Candidate(uid: one.countdown.uid, nearest: plan.nearest, targetDay: calendar.cost(plan, .targetDay),
                                                milestones: calendar.cost(plan, .milestones), full: calendar.cost(plan, .full)))
                }
                for day in calendar.feed.celebrations.days(of: one, from: calendar.today, through: last, zone: calendar.zone, language: calendar.language) {
                    celebrated.append(Celebrated(countdown: one.countdown, day: day))
                }
            }
            let room = max(0, calendar.feed.countdownMaxEvents)
            if celebrated.count > 2 * room + 1_024 {
                celebrated.sort(by: Celebrated.soonestFirst)
                celebrated.removeSubrange(room...)
            }
        }

        /// The detail each countdown gets: everyone the target day first,
        /// nearest first, while room lasts; then the nearest are upgraded to
        /// every day, or else to milestones.
        public func allot() -> Allotment {
            let plans = candidates.sorted { ($0.nearest, $0.uid) < ($1.nearest, $1.uid) }
            var budget = Cost(events: calendar.feed.countdownMaxEvents, bytes: CountdownCalendar.maxBytes)
            var chosen: [String: (Detail, Cost)] = [:]
            for plan in plans {
                if plan.targetDay.fits(in: budget) {
                    chosen[plan.uid] = (.targetDay, plan.targetDay)
                    budget = budget - plan.targetDay
                } else {
                    chosen[plan.uid] = (.none, Cost(events: 0, bytes: 0))
                }
            }
            for plan in plans where budget.events > 0 && budget.bytes > 0 {
                guard let (current, spent) = chosen[plan.uid], current == .targetDay else { continue }
                for (richer, whole) in [(Detail.full, plan.full), (.milestones, plan.milestones)] {
                    let extra = whole - spent
                    if extra.fits(in: budget) {
                        chosen[plan.uid] = (richer, whole)
                        budget = budget - extra
                        break
                    }
                }
            }
            return Allotment(chosen: chosen)
        }
    }

    /// The detail each countdown of a calendar is shown at (by UID), with its cost.
    public struct Allotment: Sendable {
        fileprivate var chosen: [String: (Detail, Cost)]

        /// Whether the countdown with `uid` has any event in the calendar: only those series are needed to write it.
        public func showsEvents(of uid: String) -> Bool { (chosen[uid]?.1.events ?? 0) > 0 }
    }

    /// The calendar of what `gathering` saw, as `allotment` shows it, with the
    /// events written from `shown`: the series of the countdowns it shows
    /// events of (`Allotment.showsEvents`; others are ignored).
    public func calendar(_ gathering: Gathering, _ allotment: Allotment, shown: [CountdownSeries]) -> Result {
        var counts: [Detail: Int] = [:]
        for (level, _) in allotment.chosen.values { counts[level, default: 0] += 1 }
        var events: [VEvent] = []
        for one in shown.sorted(by: { $0.countdown.uid < $1.countdown.uid }) {
            guard let (level, _) = allotment.chosen[one.countdown.uid], let plan = plan(one, through: gathering.last) else { continue }
            events += days(for: plan, detail: level).map(VEvent.init(component:))
        }
        // Celebrated days (half-birthdays, round day counts) fill what room is left, soonest first.
        let room = feed.countdownMaxEvents - events.count
        var roomBytes = Self.maxBytes - allotment.chosen.values.reduce(0) { $0 + $1.1.bytes }
        if room > 0 {
            let celebrated = gathering.celebrated.sorted(by: Celebrated.soonestFirst)
                .prefix(room)
                .prefix { one in
                    roomBytes -= Self.eventBytes(one.countdown)
                    return roomBytes >= 0
                }
            events += celebrated.map { one in
                VEvent(component: event(one.countdown, day: one.day.date, uid: "\(one.countdown.uid)/\(one.day.key)@celebrate.tminus", title: one.day.title))
            }
        }
        var calendar = CalendarExport.header(for: feed, name: language.page("calendarName", ["feed": feed.name]), description: description(counts))
        calendar.events = events
        return Result(calendar: calendar, detail: counts)
    }

    /// A countdown the calendar may show: an active one counting down to a target in the window.
    private func plan(_ one: CountdownSeries, through last: CivilDate) -> Plan? {
        guard one.countdown.status == .active, one.countdown.direction == .down else { return nil }
        let targets = one.dates(from: today, through: last, zone: zone, limit: horizon + 8)
        return targets.first.map { Plan(series: one, targets: targets, nearest: $0) }
    }

    /// What `allot` knows of a countdown: its nearest target and its cost at each detail.
    fileprivate struct Candidate: Sendable {
        var uid: String
        var nearest: CivilDate
        var targetDay: Cost
        var milestones: Cost
        var full: Cost
    }

    /// A celebrated day, with what its event is written from.
    fileprivate struct Celebrated: Sendable {
        var countdown: Countdown
        var day: Celebrations.Day

        static func soonestFirst(_ a: Celebrated, _ b: Celebrated) -> Bool {
            (a.day.date, a.countdown.uid, a.day.key) < (b.day.date, b.countdown.uid, b.day.key)
        }
    }

    /// The calendar's description, in the feed's language: what it holds, and
    /// how it was reduced to stay within the limits clients read.
    private func description(_ counts: [Detail: Int]) -> String {
        let text = language.page("calendarDescription", ["feed": feed.name])
        let reduced = counts.filter { $0.key != .full && $0.value > 0 }
        guard !reduced.isEmpty else { return text }
        var parts: [String] = [language.page("calendarFull", ["n": "\(counts[.full] ?? 0)"])]
        if let n = reduced[.milestones] { parts.append(language.page("calendarMilestones", ["n": "\(n)"])) }
        if let n = reduced[.targetDay] { parts.append(language.page("calendarTargetDay", ["n": "\(n)"])) }
        if let n = reduced[.none] { parts.append(language.page("calendarLeftOut", ["n": "\(n)"])) }
        return text + ". " + language.page("calendarReduced", ["events": "\(feed.countdownMaxEvents)", "kb": "\(Self.maxBytes / 1_000)",
                                                              "parts": parts.joined(separator: ", ")])
    }

    struct Plan {
        var series: CountdownSeries
        var targets: [CivilDate]
        var nearest: CivilDate
    }

    /// Events and bytes: the calendar must stay under both.
    struct Cost: Sendable {
        var events: Int
        var bytes: Int
        func fits(in budget: Cost) -> Bool { events <= budget.events && bytes <= budget.bytes }
        static func - (a: Cost, b: Cost) -> Cost { Cost(events: a.events - b.events, bytes: a.bytes - b.bytes) }
    }

    fileprivate func cost(_ plan: Plan, _ detail: Detail) -> Cost {
        let events = eventCount(plan, detail)
        return Cost(events: events, bytes: events * Self.eventBytes(plan.series.countdown))
    }

    /// What one day's event of a countdown costs, near enough: the fixed lines,
    /// the UID with its day suffix, and the title with "— 33 days (76% done)",
    /// folding adding 3 bytes every 75.
    static func eventBytes(_ countdown: Countdown) -> Int {
        let title = countdown.title.utf8.count + 60
        return 240 + countdown.uid.utf8.count + title + title / 25
    }

    private func eventCount(_ plan: Plan, _ detail: Detail) -> Int {
        if detail == .targetDay {
            // One event on each target day inside the window: no need to walk the days.
            let end = today.daysSinceEpoch + horizon
            return plan.targets.reduce(0) { $0 + ($1.daysSinceEpoch < end ? 1 : 0) }
        }
        var count = 0
        forEachDay(plan, detail) { _, _, _ in count += 1 }
        return count
    }

    /// Whether a day `left` days before a target has an event at `detail`.
    private func shows(_ left: Int, _ detail: Detail) -> Bool {
        switch (detail, feed.countdownMode) {
        case (.none, _): false
        case (.targetDay, _): left == 0
        case (.full, .daily(let days)): left < days
        case (.milestones, .daily(let days)): left < days && Feed.CountdownMode.defaultMilestones.contains(left)
        case (.full, .milestones(let marks)), (.milestones, .milestones(let marks)): marks.contains(left)
        }
    }

    /// For each day D in the window, the days left to the first target on or after D.
    private func forEachDay(_ plan: Plan, _ detail: Detail, _ body: (CivilDate, CivilDate, Int) -> Void) {
        guard detail != .none else { return }
        var index = 0
        let start = today.daysSinceEpoch
        for offset in 0..<horizon {
            while index < plan.targets.count, plan.targets[index].daysSinceEpoch < start + offset { index += 1 }
            guard index < plan.targets.count else { break }
            let left = plan.targets[index].daysSinceEpoch - start - offset
            if shows(left, detail) { body(today.adding(days: offset), plan.targets[index], left) }
        }
    }

    private func days(for plan: Plan, detail: Detail) -> [Component] {
        let countdown = plan.series.countdown
        var events: [Component] = []
        let numbering = countdown.repeatRule.yearNumbering
        forEachDay(plan, detail) { day, target, left in
            let number = numbering?.number(on: target, from: countdown.target.civilDate)
            let amount = countdown.displayUnit == .workdays ? language.quantity(workingDays.count(from: day, to: target), .workdays)
                : language.quantity(left, .days)
            let named = countdown.renderedTitle(occurrenceNumber: number), when = left == 0 ? language.today : amount
            // The title last, so that nothing in it is taken for a placeholder.
            var title = feed.countdownTitle.map { $0.replacingOccurrences(of: "{amount}", with: when).replacingOccurrences(of: "{title}", with: named) }
                ?? named + " — " + when
            if let from = countdown.countsFrom, !countdown.isRepeating, target > from, left > 0 {
                // "End of term — 25 days (76% done)": the span from `countsFrom`, on that day.
                let total = Double(target.daysSinceEpoch - from.daysSinceEpoch)
                let percent = Int((Double(day.daysSinceEpoch - from.daysSinceEpoch) / total * 100).rounded(.down))
                title += " " + language.percentDone(min(100, max(0, percent)))
            }
            events.append(event(countdown, day: day, uid: "\(countdown.uid)/\(target.basic)/\(day.basic)@countdown.tminus", title: title))
        }
        return events
    }

    private func event(_ countdown: Countdown, day: CivilDate, uid: String, title: String) -> Component {
        let stamp = countdown.lastModified ?? countdown.created ?? Date(timeIntervalSince1970: 0)
        return Component(name: VEvent.componentName, properties: [
            Property.text("UID", uid),
            Property(name: "DTSTAMP", value: UTCStamp.basic(stamp)),
            Property.text("SUMMARY", title),
            DateTimeValue.date(day).property("DTSTART"),
            DateTimeValue.date(day.adding(days: 1)).property("DTEND"),
            Property(name: "TRANSP", value: "TRANSPARENT"),
            Property(name: "SEQUENCE", value: String(countdown.sequence)),
        ])
    }
}
