import Foundation
import ICalendar

/// How an export writes a repeat in another calendar (an RFC 7529 RSCALE rule:
/// Chinese New Year, a Hebrew birthday) for clients that do not read RSCALE.
///
/// Measured with tminus's own exports: Python's icalendar parses such a rule,
/// but recurring-ical-events refuses the calendar (dateutil: "unknown parameter
/// 'RSCALE'") and khal 0.14 drops the event ("This event will not be
/// available"). Google and Outlook are documented to ignore RSCALE.
public struct OtherCalendarDates: Sendable, Hashable {
    public enum Form: String, Sendable, Hashable, CaseIterable {
        /// The RSCALE rule, plus its dates in `window` as RDATEs: right in
        /// clients that read RSCALE, and the dates are there for those that
        /// don't, but recurring-ical-events (Home Assistant) refuses the whole
        /// calendar, so this is asked for (`?rscale=rule`, `--rscale rule`).
        case ruleAndDates = "rule"
        /// Only the dates, as RDATEs; the rule travels in `X-TMINUS-RRULE` so
        /// that tminus re-imports it. Every client and checker reads it and shows
        /// the right days, within the window: the default.
        case dates
    }

    public var form: Form
    /// The days the RDATEs cover.
    public var window: ClosedRange<CivilDate>

    public init(form: Form = .dates, window: ClosedRange<CivilDate>) {
        self.form = form
        self.window = window
    }

    /// From the first of January of `today`'s year, `years` years on: the bytes
    /// of an export change once a year, not every day.
    public init(form: Form = .dates, today: CivilDate, years: Int = 10) {
        let first = CivilDate(year: today.year, month: 1, day: 1)
        self.init(form: form, window: first...CivilDate(year: today.year + years, month: 1, day: 1).adding(days: -1))
    }

    /// The year of `today` that `init(today:)` is given at `now` in `zone`,
    /// cheaply: UTC's year, unless a new year is within 14 hours (the widest
    /// offset from UTC), where the zone decides. A request that only needs the
    /// window's year then asks no time zone (libical's, behind a lock).
    public static func year(at now: Date, in zone: Zone) -> Int {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let early = LocalDateTime(wallSeconds: seconds - 14 * 3_600).date.year
        guard early == LocalDateTime(wallSeconds: seconds + 14 * 3_600).date.year else { return zone.local(of: now).date.year }
        return early
    }

    /// The parameter that marks the RDATEs an export spelled out, which a
    /// re-import drops again (the rule makes them).
    public static let parameter = "X-TMINUS-SPELLED-OUT"
    /// Where `.dates` keeps the rule.
    public static let ruleProperty = "X-TMINUS-RRULE"

    /// A VEVENT or VTODO with each rule in another calendar spelled out as this
    /// form says (`tminus format`); other components are returned as they are.
    public func spelledOut(_ component: Component) -> Component {
        guard let start = (component.first("DTSTART") ?? component.first("DUE")).flatMap(DateTimeValue.init(property:)),
              component.all("RRULE").contains(where: { Repeat.isRscale($0.value) }) else { return component }
        var written = component
        written.setAll("RRULE", component.all("RRULE").flatMap { rule in
            Repeat.isRscale(rule.value) ? properties(start: start, rule: rule.value) : [rule]
        })
        return written
    }

    /// The RRULE (or X-TMINUS-RRULE) and RDATE properties for `countdown`'s
    /// rule `rule` in another calendar.
    func properties(for countdown: Countdown, rule: String) -> [Property] {
        properties(start: countdown.target, rule: rule)
    }

    private func properties(start: DateTimeValue, rule: String) -> [Property] {
        guard let parsed = try? RecurrenceRule(parsing: rule) else { return [Property(name: "RRULE", value: rule)] }
        let expander = RuleExpander(rule: parsed, start: start.local, isDate: start.isAllDay)
        let found = expander.expand(from: LocalDateTime(date: window.lowerBound), to: LocalDateTime(date: window.upperBound.adding(days: 1)),
                                    limit: 1_000).occurrences.filter { $0 != start.local }
        var properties = [Property(name: form == .dates ? Self.ruleProperty : "RRULE", value: rule)]
        guard !found.isEmpty else { return properties }
        var rdate = start.with(local: found[0]).property("RDATE")
        rdate.value = found.map { start.isAllDay ? $0.date.basic : start.with(local: $0).property("RDATE").value }.joined(separator: ",")
        rdate.parameters.append(Parameter(Self.parameter, "TRUE"))
        properties.append(rdate)
        return properties
    }
}
