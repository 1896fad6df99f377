import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// The exported calendar and the countdown calendar as a subscriber's link
/// shapes them (issue #39, `LinkTuning`): filtered from the compiled series,
/// rendered once per normalised link (and day, where a window makes the bytes
/// depend on it), never widening what the link's token may see.
extension FeedRenderer {
    /// `/feeds/{slug}.ics?category=…` and the rest. A link naming only
    /// categories the feed lacks is answered with an empty calendar and not
    /// kept, so that made-up names cannot fill the cache.
    package func tunedExport(_ compiled: CompiledFeed, tuning asked: LinkTuning, rscale: OtherCalendarDates.Form = .dates) async throws -> Representation {
        let tuning = asked.known(in: compiled.categories)
        let zone = tuning.zone ?? compiled.feed.zone
        let today = tuning.today(at: clock(), fallback: compiled.feed.zone)
        let spelling = OtherCalendarDates(form: rscale, window: compiled.otherCalendarDates.window)
        let render: @Sendable () -> Representation = { [settings] in
            let shown = tuning.matchesNothing ? [] : Self.shown(compiled.series, tuning: tuning, today: today, zone: zone, ahead: false)
            var stored = compiled.stored
            let countdowns = tuning.alarmed(shown.map(\.countdown), feed: &stored.feed)
            return CompiledFeed.export(stored, countdowns: countdowns, settings: settings, otherCalendarDates: spelling)
        }
        if tuning.matchesNothing { return render() }
        let key = RenderKey.tunedExport(compiled.identity, day: tuning.dependsOnToday ? today : nil, spelling: spelling, tuning: tuning)
        return try await cache.value(for: key, render: render)
    }

    /// The series a link keeps: its categories, and (for an export) an occurrence
    /// within its window; for the countdown calendar (`ahead`), a target on or
    /// before the window's last day.
    static func shown(_ series: [CountdownSeries], tuning: LinkTuning, today: CivilDate, zone: Zone, ahead: Bool) -> [CountdownSeries] {
        let (first, last) = tuning.window(around: today)
        // `dates` may answer past `through`: the first date is compared with the last day here.
        func occurs(_ one: CountdownSeries, from start: CivilDate, through end: CivilDate?) -> Bool {
            guard let found = one.dates(from: start, through: end ?? start.adding(days: LinkTuning.maxDays * 10), zone: zone, limit: 1).first else { return false }
            return end.map { found <= $0 } ?? true
        }
        return series.filter { one in
            guard tuning.keepsCategories(of: one.countdown) else { return false }
            if ahead { return last.map { occurs(one, from: today, through: $0) } ?? true }
            guard let first else { return last.map { one.countdown.target.civilDate <= $0 } ?? true }
            // An event that lasts days is kept until its last day has passed.
            let span = one.countdown.end.map { max(0, $0.civilDate.daysSinceEpoch - one.countdown.target.civilDate.daysSinceEpoch) } ?? 0
            return occurs(one, from: first.adding(days: -min(span, LinkTuning.maxDays)), through: last)
        }
    }
}
