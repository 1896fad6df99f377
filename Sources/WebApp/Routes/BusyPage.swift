import Countdowns
import CountdownStore
import Foundation
import Hummingbird
import ICalendar
import Pages

/// A feed as busy time only: the days of the next weeks with when its
/// events are, and nothing of what they are (issue #62). All a `busy` member
/// of its space sees of it, as a `busy` feed link shows it to someone
/// without an account; anyone who reads the feed may look too.
package struct BusyPage: Sendable {
    package let app: WebApp

    package struct BusyView: TemplateView {
        package struct Day: TemplateView {
            package var label: String
            package var iso: String
            package var periods: [String]
            package var templateValues: [String: Any] { ["isEmpty": periods.isEmpty] }
        }
        package var slug: String
        package var name: String
        package var days: [Day]
        package var weeks: Int
        package var zone: String
        package var choices: [AgendaPages.WeeksChoice]
        package var templateValues: [String: Any] { ["isEmpty": days.isEmpty] }
    }

    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("feeds/{slug}/busy") { request, context in try await self.show(request, context) }
    }

    private func show(_ request: Request, _ context: WebAppContext) async throws -> HTMLPage {
        let slug = context.parameters.get("slug") ?? ""
        let words = app.words(context)
        let weeks = min(12, max(1, request.uri.queryParameters.get("weeks", as: Int.self) ?? 2))
        // Authorized by the use case: a feed the person may not see even this of is not there (404).
        guard let stored = app.catalog.stored(slug: slug) else { throw StoreError.feedNotFound(slug) }
        let zone = try ViewerZone.fromQuery(request.uri.queryParameters.get("tz"), default: stored.feed.zone)
        let today = zone.local(of: app.clock()).date
        let days = (0..<(weeks * 7)).map { today.adding(days: $0) }
        let window = DateInterval(start: zone.instant(of: LocalDateTime(date: days[0])), end: zone.instant(of: LocalDateTime(date: today.adding(days: weeks * 7))))
        let periods = try await app.service.busyTimes(feed: slug, within: window)
        let view = BusyView(slug: slug, name: stored.feed.name, days: days.compactMap { day in
            let (start, end) = (zone.instant(of: LocalDateTime(date: day)), zone.instant(of: LocalDateTime(date: day.adding(days: 1))))
            let texts = periods.filter { $0.start < end && $0.end > start }.map { period in
                Self.span(from: max(period.start, start), to: min(period.end, end), dayStart: start, dayEnd: end, zone: zone, words: words)
            }
            return texts.isEmpty ? nil : BusyView.Day(label: words.language.format(day), iso: day.iso, periods: texts)
        }, weeks: weeks, zone: zone.identifier, choices: [1, 2, 4, 8, 12].map { AgendaPages.WeeksChoice(weeks: $0, selected: $0 == weeks) })
        return app.render("busy", title: words["busy.title", ["feed": stored.feed.name]], section: "spaces", view, context: context)
    }

    /// "09:00–11:30" within one day, or "all day" for a period that covers it.
    static func span(from start: Date, to end: Date, dayStart: Date, dayEnd: Date, zone: Zone, words: WebWords) -> String {
        if start <= dayStart, end >= dayEnd { return words["timeline.allDay"] }
        func time(_ date: Date) -> String {
            let local = zone.local(of: date)
            return String(format: "%02d:%02d", local.hour, local.minute)
        }
        return "\(time(start))–\(end >= dayEnd ? "24:00" : time(end))"
    }
}
