import Catalog
import Countdowns
import CountdownStore
import Foundation
import Hummingbird
import ICalendar
import Pages

/// The pages that look across feeds: the timeline (one agenda for the next
/// weeks), the tasks (with ticking off), and the statistics per category.
package struct AgendaPages: Sendable {
    package let app: WebApp

    package struct TimelineView: TemplateView {
        package struct Entry {
            package var time: String?
            package var title: String
            package var feedName: String
            package var color: String
            package var cancelled: Bool
            package var done: Bool
            package var isAlarm: Bool
            package var isTask: Bool
            package var link: String?
        }
        package struct Day: TemplateView {
            package var label: String
            package var iso: String
            package var isToday: Bool
            package var entries: [Entry]
            package var templateValues: [String: Any] { ["isEmpty": entries.isEmpty] }
        }
        package var days: [Day]
        package var templateValues: [String: Any] { ["isEmpty": days.isEmpty] }
        package var weeks: Int
        package var zone: String
        package var truncated: Bool
        package var choices: [WeeksChoice]
    }

    package struct WeeksChoice {
        package var weeks: Int
        package var selected: Bool
    }

    package struct TasksView: TemplateView {
        package struct Task {
            package var id: Int64
            package var title: String
            package var feedName: String
            package var due: String
            package var dueText: String
            package var priority: Int?
            package var group: String
            package var done: Bool
            package var overdue: Bool
        }
        package var open: [Task]
        package var done: [Task]
        package var templateValues: [String: Any] { ["hasOpen": !open.isEmpty, "hasDone": !done.isEmpty, "hasOverdue": tasks.overdue > 0] }
        /// Named as the feed pages name theirs: the count texts read `tasks.overdue`.
        package var tasks: TaskCounts
    }

    package struct StatsView: TemplateView {
        package struct Row {
            package var name: String
            package var color: String
            package var occurrences: Int
            package var countUp: String?
        }
        package var label: String
        package var choices: [PeriodChoice]
        package var previous: String
        package var next: String
        package var rows: [Row]
        package var templateValues: [String: Any] { ["isEmpty": rows.isEmpty] }
        package var chart: String
    }

    package struct PeriodChoice {
        package var value: String
        package var label: String
        package var selected: Bool
    }

    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("timeline") { request, context in try await self.timeline(request, context) }
        app.get("tasks") { _, context in try await self.tasks(context) }
        app.get("stats") { request, context in try await self.stats(request, context) }
    }

    /// The viewer's zone: `?tz=`, else the zone most feeds use.
    private func zone(_ request: Request, _ feeds: [StoredFeed]) throws -> Zone {
        try ViewerZone.fromQuery(request.uri.queryParameters.get("tz"), default: FeedCatalog.commonZone(of: feeds))
    }

    private func feedSeries(_ feeds: [StoredFeed]) async -> [Agenda.FeedSeries] {
        await app.catalog.feedsToSum(of: feeds).feeds.map {
            Agenda.FeedSeries(slug: $0.slug, name: $0.feed.name, color: $0.feed.color, categoryColors: $0.feed.categoryColors, series: $0.series)
        }
    }

    private func timeline(_ request: Request, _ context: WebAppContext) async throws -> HTMLPage {
        let requested = try request.uri.queryParameters.get("tz").map { try ViewerZone.fromQuery($0, default: .utc) }
        let weeks = min(12, max(1, request.uri.queryParameters.get("weeks", as: Int.self) ?? 4))
        let words = app.words(context)
        let read = try await app.catalog.agenda(for: app.service, dayCount: weeks * 7, zone: requested, now: app.clock())
        let (agenda, zone) = (read.agenda, read.zone)
        let days = agenda.days.map { day in
            TimelineView.Day(label: day.isToday ? words["timeline.today", ["date": words.language.format(day.date)]] : words.language.format(day.date), iso: day.date.iso, isToday: day.isToday,
                             entries: day.entries.map { entry in
                                 TimelineView.Entry(time: entry.time, title: entry.title, feedName: entry.feedName, color: entry.color,
                                                    cancelled: entry.cancelled, done: entry.done, isAlarm: entry.kind == .alarm,
                                                    isTask: entry.kind == .task, link: entry.countdownID.map { "/app/countdowns/\($0)/edit" })
                             })
        }
        let view = TimelineView(days: days, weeks: weeks, zone: zone.identifier, truncated: agenda.truncated,
                                choices: [1, 2, 4, 8, 12].map { WeeksChoice(weeks: $0, selected: $0 == weeks) })
        return app.render("timeline", title: words["nav.timeline"], section: "timeline", view, context: context)
    }

    private func tasks(_ context: WebAppContext) async throws -> HTMLPage {
        var open: [TasksView.Task] = []
        var done: [TasksView.Task] = []
        var all: [(Countdown, RemainingTime)] = []
        let now = app.clock()
        let words = app.words(context)
        for compiled in await app.catalog.feedsToSum(of: try await app.readableFeeds()).feeds {
            let calculator = app.calculator(compiled.feed.zone)
            for series in compiled.series where series.countdown.kind == .task {
                let remaining = calculator.remaining(for: series)
                all.append((series.countdown, remaining))
                let due = TaskCounts.due(series.countdown, remaining, now: now)
                let task = TasksView.Task(id: series.countdown.id ?? 0, title: remaining.title, feedName: compiled.feed.name, due: remaining.date.iso,
                                          dueText: words.language.format(remaining.date) + (remaining.occurrence.map { $0.isAllDay ? "" : " " + Self.time($0, compiled.feed.zone) } ?? ""),
                                          priority: series.countdown.priority.flatMap { $0 > 0 ? $0 : nil },
                                          group: due.map { words["group.\($0.rawValue)"] } ?? "",
                                          done: series.countdown.status == .completed, overdue: due == .overdue)
                if series.countdown.status == .active { open.append(task) } else if series.countdown.status == .completed { done.append(task) }
            }
        }
        open.sort { ($0.due, $0.priority ?? 10, $0.title) < ($1.due, $1.priority ?? 10, $1.title) }
        done.sort { $0.due > $1.due }
        let view = TasksView(open: open, done: Array(done.prefix(50)), tasks: TaskCounts(rows: all, now: now))
        return app.render("tasks", title: words["nav.tasks"], section: "tasks", view, context: context)
    }

    package static func time(_ occurrence: Occurrence, _ zone: Zone) -> String {
        let local = zone.local(of: occurrence.startInstant)
        return String(format: "%02d:%02d", local.hour, local.minute)
    }

    private func stats(_ request: Request, _ context: WebAppContext) async throws -> HTMLPage {
        let feeds = try await app.readableFeeds()
        let zone = try zone(request, feeds)
        let words = app.words(context)
        guard let period = CategoryStatistics.Period(rawValue: request.uri.queryParameters.get("period") ?? "month") else {
            throw HTTPError(.badRequest, message: words["error.period"])
        }
        let at = request.uri.queryParameters.get("at").flatMap { CivilDate(parsing: String($0)) } ?? zone.local(of: app.clock()).date
        guard (1900...2200).contains(at.year) else { throw HTTPError(.badRequest, message: words["error.at"]) }
        let span = CategoryStatistics.Span(period, containing: at)
        let statistics = CategoryStatistics(feeds: await feedSeries(feeds), span: span, zone: zone, now: app.clock())
        let label: String
        switch period {
        case .day: label = words.language.format(span.start)
        case .week: label = words["stats.weekOf", ["date": words.language.format(span.start)]]
        case .month: label = AppDates.month(span.start, in: words.language)
        case .year: label = String(span.start.year)
        }
        let link = { (moved: CategoryStatistics.Span) in "/app/stats?period=\(period.rawValue)&at=\(moved.start.iso)" }
        let view = StatsView(label: label,
                             choices: CategoryStatistics.Period.allCases.map {
                                 PeriodChoice(value: $0.rawValue, label: words["period.\($0.rawValue)"], selected: $0 == period)
                             },
                             previous: link(span.moved(by: -1)), next: link(span.moved(by: 1)),
                             rows: statistics.categories.map {
                                 StatsView.Row(name: $0.name, color: $0.color, occurrences: $0.occurrences,
                                               countUp: $0.longestCountUp.map { words["stats.countUp", ["title": $0.title, "days": $0.days.formatted(.number.locale(words.language.locale))]] })
                             },
                             chart: StatisticsChart.svg(statistics, words: words))
        return app.render("stats", title: words["nav.stats"], section: "stats", view, context: context)
    }
}
