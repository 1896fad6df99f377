import Foundation
import ICalendar

/// The countdown calendar: one all-day event per day before each target
/// ("🎄 Christmas — 33 days"), or only on milestone days. Each day's event has
/// its own stable UID and a fixed title, so a client that refreshes rarely still
/// shows the right number on every day it has. Days are the feed's days.
public struct CountdownCalendar: Sendable {
    public let feed: Feed
    public let today: CivilDate
    public let zone: Zone
    public let maxOccurrences: Int

    /// `today` is the current date in the feed's zone; rendering depends on nothing else.
    public init(feed: Feed, today: CivilDate, zone: Zone, maxOccurrences: Int = 100_000) {
        self.feed = feed
        self.today = today
        self.zone = zone
        self.maxOccurrences = maxOccurrences
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

    public func calendar(for countdowns: [Countdown]) -> VCalendar {
        var calendar = CalendarExport.header(for: feed, name: feed.name + " — countdown",
                                             description: "One all-day event a day until each of \(feed.name)'s countdowns")
        for countdown in countdowns.sorted(by: { $0.uid < $1.uid }) where countdown.status == .active && countdown.direction == .down {
            calendar.events += days(for: countdown).map(VEvent.init(component:))
        }
        return calendar
    }

    /// The events for one countdown: for each day D in the window, the days left to
    /// the first occurrence on or after D.
    func days(for countdown: Countdown) -> [Component] {
        let targets = targetDates(for: countdown)
        var events: [Component] = []
        var index = 0
        for offset in 0..<horizon {
            let day = today.adding(days: offset)
            while index < targets.count, targets[index] < day { index += 1 }
            guard index < targets.count else { break }
            let left = targets[index].daysSinceEpoch - day.daysSinceEpoch
            switch feed.countdownMode {
            case .daily(let days): if left >= days { continue }       // only the last N days before a target
            case .milestones(let marks): if !marks.contains(left) { continue }
            }
            let number = countdown.repeatRule.yearlyInterval.map { (targets[index].year - countdown.target.civilDate.year) / max($0, 1) }
            let title = countdown.renderedTitle(occurrenceNumber: number) + " — " + (left == 0 ? "Today" : DisplayText.quantity(left, .days))
            events.append(event(countdown, day: day, target: targets[index], title: title))
        }
        return events
    }

    /// Dates (in the feed's zone) of the occurrences that the window can count to.
    func targetDates(for countdown: Countdown) -> [CivilDate] {
        let expander = RemainingTimeCalculator.expander(for: countdown, floatingZone: zone)
        let items = RemainingTimeCalculator.components(for: countdown)
        let start = zone.instant(of: LocalDateTime(date: today))
        // Far enough to find the next occurrence after the window, however sparse the repeat.
        let window = DateInterval(start: start, end: start.addingTimeInterval(1_000 * 365.25 * 86_400))
        let found = expander.occurrences(of: items, in: window, limit: min(maxOccurrences, horizon + 8)).occurrences
        let dates = found.map { $0.isAllDay ? $0.start.civilDate : zone.local(of: $0.startInstant).date }.filter { $0 >= today }
        return Array(Set(dates)).sorted()
    }

    private func event(_ countdown: Countdown, day: CivilDate, target: CivilDate, title: String) -> Component {
        let stamp = countdown.lastModified ?? countdown.created ?? Date(timeIntervalSince1970: 0)
        return Component(name: VEvent.componentName, properties: [
            Property.text("UID", "\(countdown.uid)/\(target.basic)/\(day.basic)@countdown.tminus"),
            Property(name: "DTSTAMP", value: Zone.utc.local(of: stamp).basic + "Z"),
            Property.text("SUMMARY", title),
            DateTimeValue.date(day).property("DTSTART"),
            DateTimeValue.date(day.adding(days: 1)).property("DTEND"),
            Property(name: "TRANSP", value: "TRANSPARENT"),
            Property(name: "SEQUENCE", value: String(countdown.sequence)),
        ])
    }
}
