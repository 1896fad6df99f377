import Foundation
import ICalendar

/// Computes `RemainingTime` for countdowns at an injected instant, in an
/// injected viewer zone. Calendar days are counted in that zone, never in UTC:
/// an all-day date compared in UTC lands on the wrong day for half the world.
public struct RemainingTimeCalculator: Sendable {
    public let now: Date
    public let zone: Zone
    /// Most occurrences one expansion may produce, so no rule can exhaust the process.
    public let maxOccurrences: Int
    /// The feed's weekend and holidays, for `workdays`.
    public let workingDays: WorkingDays
    /// The language `text` is written in.
    public let language: Language

    public init(now: Date, zone: Zone, maxOccurrences: Int = 100_000, workingDays: WorkingDays = .standard, language: Language = .english) {
        self.now = now
        self.zone = zone
        self.maxOccurrences = maxOccurrences
        self.workingDays = workingDays
        self.language = language
    }

    private var today: CivilDate { zone.local(of: now).date }

    /// Prepares the countdown's series at `now` and measures it: fine for one
    /// countdown; a feed keeps its prepared series and calls `remaining(for:unit:)`
    /// with them, so each minute costs arithmetic, not expansion.
    public func remaining(for countdown: Countdown, unit requested: DisplayUnit? = nil) -> RemainingTime {
        remaining(for: CountdownSeries(countdown, preparedAt: now, floatingZone: zone, maxOccurrences: maxOccurrences), unit: requested)
    }

    /// Where a countdown stands in a list: its state, the occurrence it shows,
    /// and its title. What sorting needs, without the amounts, working days and
    /// progress `remaining(for:unit:)` adds (progress may expand the series
    /// from its start: most of a 10,000-countdown list's cost).
    public struct Placement: Sendable {
        public var state: RemainingTime.State
        public var occurrence: Occurrence?
        public var title: String
    }

    public func placement(for series: CountdownSeries) -> Placement {
        let (chosen, _, state) = choose(series)
        return Placement(state: state, occurrence: chosen, title: series.countdown.renderedTitle(occurrenceNumber: occurrenceNumber(series.countdown, chosen)))
    }

    /// The occurrence a countdown shows now, its date here, and its state.
    private func choose(_ series: CountdownSeries) -> (Occurrence?, CivilDate, RemainingTime.State) {
        let countdown = series.countdown
        let countingUp = countdown.direction == .up
        let next = { series.next(at: now, zone: zone, isOver: isOver) }
        let previous = { series.previous(at: now, zone: zone) }
        var chosen = countingUp ? previous() ?? next() : next() ?? previous()
        if chosen == nil { chosen = series.first(zone: zone) }
        let date = chosen.map(localDate) ?? countdown.target.civilDate
        var state = chosen.map(state(of:)) ?? .past
        if countdown.status != .active { state = .past }
        return (chosen, date, state)
    }

    public func remaining(for series: CountdownSeries, unit requested: DisplayUnit? = nil) -> RemainingTime {
        let countdown = series.countdown
        let countingUp = countdown.direction == .up
        let (chosen, date, state) = choose(series)
        let days = date.daysSinceEpoch - today.daysSinceEpoch
        let elapsedSide = countingUp && state != .upcoming && state != .today
        let (from, to) = span(to: chosen, date: date, backwards: elapsedSide || (state == .past && days < 0))
        let unit = resolve(requested ?? countdown.displayUnit, from: from, to: to, days: abs(days))
        let workdays = workingDays.count(from: today, to: date)
        let amount = unit == .workdays ? abs(workdays) : Self.amount(unit, from: from, to: to, days: abs(days))
        let breakdown = CivilArithmetic.breakdown(from: from, to: to)
        let number = occurrenceNumber(countdown, chosen)
        let text = DisplayText.render(state: state, status: countdown.status, unit: unit, amount: amount,
                                      breakdown: breakdown, timed: !(chosen?.isAllDay ?? countdown.isAllDay),
                                      countingUp: elapsedSide, language: language)
        return RemainingTime(state: state, occurrence: chosen, date: date, days: days, unit: unit, amount: amount,
                             breakdown: breakdown, workdays: workdays, occurrenceNumber: number,
                             title: countdown.renderedTitle(occurrenceNumber: number), text: text, isCountingUp: countingUp,
                             progress: countingUp ? nil : progress(series, to: chosen, date: date, state: state))
    }

    // MARK: choosing the occurrence

    private func isOver(_ occurrence: Occurrence) -> Bool {
        if occurrence.isAllDay { return lastDate(occurrence) < today }
        if let end = occurrence.endInstant, end > occurrence.startInstant { return end <= now && localDate(occurrence) != today }
        return occurrence.startInstant < now && localDate(occurrence) != today
    }

    private func state(of occurrence: Occurrence) -> RemainingTime.State {
        let start = localDate(occurrence)
        if occurrence.isAllDay {
            if start > today { return .upcoming }
            if start == today { return .today }
            return lastDate(occurrence) >= today ? .running : .past
        }
        let end = occurrence.endInstant ?? occurrence.startInstant
        if occurrence.startInstant <= now, now < end { return .running }
        if start == today { return .today }
        return occurrence.startInstant > now ? .upcoming : .past
    }

    private func localDate(_ occurrence: Occurrence) -> CivilDate {
        occurrence.isAllDay ? occurrence.start.civilDate : zone.local(of: occurrence.startInstant).date
    }

    /// The last day an all-day occurrence covers (DTEND is exclusive).
    private func lastDate(_ occurrence: Occurrence) -> CivilDate {
        guard let end = occurrence.end, end.isAllDay, end.civilDate > occurrence.start.civilDate else { return occurrence.start.civilDate }
        return end.civilDate.adding(days: -1)
    }

    // MARK: progress

    /// Elapsed over total, from the span's start to `occurrence`: calendar days
    /// in the viewer's zone for all-day targets, instants for timed ones.
    private func progress(_ series: CountdownSeries, to occurrence: Occurrence?, date: CivilDate, state: RemainingTime.State) -> Double? {
        let countdown = series.countdown
        var start: (day: CivilDate, instant: Date)?
        if let from = countdown.countsFrom {
            start = (from, zone.instant(of: LocalDateTime(date: from)))
        } else if countdown.isRepeating, let occurrence,
                  let previous = series.previous(at: occurrence.startInstant.addingTimeInterval(-1), zone: zone),
                  previous.startInstant < occurrence.startInstant {
            start = (localDate(previous), previous.startInstant)
        }
        guard let start else { return nil }
        if state != .upcoming { return 1 }
        let fraction: Double
        if let occurrence, !occurrence.isAllDay, countdown.countsFrom == nil {
            let total = occurrence.startInstant.timeIntervalSince(start.instant)
            fraction = total > 0 ? now.timeIntervalSince(start.instant) / total : 1
        } else {
            let total = date.daysSinceEpoch - start.day.daysSinceEpoch
            fraction = total > 0 ? Double(today.daysSinceEpoch - start.day.daysSinceEpoch) / Double(total) : 1
        }
        return (min(1, max(0, fraction)) * 1000).rounded() / 1000
    }

    // MARK: amounts

    /// The wall-time span being measured, earlier first.
    private func span(to occurrence: Occurrence?, date: CivilDate, backwards: Bool) -> (LocalDateTime, LocalDateTime) {
        let timed = occurrence.map { !$0.isAllDay } ?? false
        let here = timed ? zone.local(of: now) : LocalDateTime(date: today)
        let there = timed ? zone.local(of: occurrence!.startInstant) : LocalDateTime(date: date)
        return backwards || there < here ? (min(here, there), max(here, there)) : (here, there)
    }

    private func resolve(_ unit: DisplayUnit, from: LocalDateTime, to: LocalDateTime, days: Int) -> DisplayUnit {
        guard unit == .dynamic else { return unit }
        if days <= 99 { return .days }
        return CivilArithmetic.months(from: LocalDateTime(date: from.date), to: LocalDateTime(date: to.date)) <= 12 ? .months : .years
    }

    static func amount(_ unit: DisplayUnit, from: LocalDateTime, to: LocalDateTime, days: Int) -> Int {
        let months = CivilArithmetic.months(from: LocalDateTime(date: from.date), to: LocalDateTime(date: to.date))
        switch unit {
        case .days, .detailed, .dynamic, .workdays: return days
        case .weeks: return days / 7
        case .months: return months
        case .years: return months / 12
        }
    }

    private func occurrenceNumber(_ countdown: Countdown, _ occurrence: Occurrence?) -> Int? {
        guard let occurrence else { return nil }
        return countdown.repeatRule.occurrenceNumber(on: occurrence.start.civilDate, from: countdown.target.civilDate)
    }
}
