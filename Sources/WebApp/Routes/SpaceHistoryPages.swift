import CountdownStore
import Foundation
import Hummingbird
import Pages
import Services

/// A space's activity (its last 200 changes, newest first) and
/// its board (members by tasks completed this week, month or year, sortable;
/// a member may leave themselves off it).
package struct SpaceHistoryPages: Sendable {
    package let app: WebApp

    package struct ActivityView: TemplateView {
        package struct Line {
            package var text: String
            package var when: String
            package var link: String?
        }

        package var slug: String
        package var name: String
        package var lines: [Line]
        package var templateValues: [String: Any] { ["hasLines": !lines.isEmpty] }
    }

    package struct BoardView: TemplateView {
        package struct Row {
            package var rank: Int
            package var name: String
            package var completed: Int
            package var focused: String
            package var isMe: Bool
        }

        package struct Choice {
            package var label: String
            package var link: String
            package var current: Bool
        }

        package var slug: String
        package var name: String
        package var rows: [Row]
        package var periods: [Choice]
        package var sorts: [Choice]
        package var period: String
        /// The person is on the board (else: they chose to be left off, or are no member).
        package var meShown: Bool
        package var isMember: Bool
        package var templateValues: [String: Any] { ["hasRows": !rows.isEmpty] }
    }

    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("spaces/{space}/activity") { request, context in try await self.activity(context).response(from: request, context: context) }
        app.get("spaces/{space}/board") { request, context in try await self.board(request, context).response(from: request, context: context) }
        app.post("spaces/{space}/board") { request, context in
            let slug = context.parameters.get("space") ?? ""
            let form = try await WebForm.decode(BoardForm.self, request, limit: 1 << 10)
            try await self.app.service.setOnBoard(space: slug, form.shown == "yes")
            return Response.redirect(to: "/app/spaces/\(slug)/board", type: .normal)
        }
    }

    package struct BoardForm: PostedForm {
        package var csrf: String?
        package var shown: String?
    }

    private func activity(_ context: WebAppContext) async throws -> HTMLPage {
        let slug = context.parameters.get("space") ?? ""
        let words = app.words(context)
        let (space, _) = try await app.service.space(slug: slug)
        let lines = try await app.service.activity(space: slug).map { entry in
            // A deleted countdown has no page left; one moved away has, in its new feed.
            ActivityView.Line(text: words["space.\(entry.kind.rawValue)", ["who": entry.who, "title": entry.title, "feed": entry.feedName]],
                              when: AppDates.text(entry.at), link: entry.kind == .deleted ? nil : "/app/countdowns/\(entry.countdownId)/edit")
        }
        return app.render("space-activity", title: words["space.activity"], section: "spaces", ActivityView(slug: slug, name: space.name, lines: lines),
                          context: context)
    }

    private func board(_ request: Request, _ context: WebAppContext) async throws -> HTMLPage {
        let slug = context.parameters.get("space") ?? ""
        let words = app.words(context)
        let period = request.uri.queryParameters.get("period").flatMap { BoardPeriod(rawValue: String($0)) } ?? .week
        let sort = request.uri.queryParameters.get("sort").map { String($0) } ?? "count"
        let byName = sort == "name"
        let (space, members) = try await app.service.space(slug: slug)
        var standings = try await app.service.board(space: slug, period: period)
        if byName { standings.sort { $0.name.localizedStandardCompare($1.name) == .orderedAscending } }
        if sort == "focus" { standings.sort { ($1.focusedSeconds, $0.name) < ($0.focusedSeconds, $1.name) } }
        let rows = standings.enumerated().map {
            BoardView.Row(rank: $0.offset + 1, name: $0.element.name, completed: $0.element.completed,
                          focused: FocusView.time(seconds: $0.element.focusedSeconds, words), isMe: $0.element.isMe)
        }
        let base = "/app/spaces/\(slug)/board"
        let periods = BoardPeriod.allCases.map { choice in
            BoardView.Choice(label: words["space.\(choice.rawValue)"], link: "\(base)?period=\(choice.rawValue)\(sort == "count" ? "" : "&sort=\(sort)")", current: choice == period)
        }
        let sorts = [BoardView.Choice(label: words["space.sortByCount"], link: "\(base)?period=\(period.rawValue)", current: sort == "count"),
                     BoardView.Choice(label: words["space.sortByFocus"], link: "\(base)?period=\(period.rawValue)&sort=focus", current: sort == "focus"),
                     BoardView.Choice(label: words["space.sortByName"], link: "\(base)?period=\(period.rawValue)&sort=name", current: byName)]
        let me = context.person?.access.id
        return app.render("space-board", title: words["space.board"], section: "spaces",
                          BoardView(slug: slug, name: space.name, rows: rows, periods: periods, sorts: sorts, period: words["space.\(period.rawValue)"],
                                    meShown: standings.contains { $0.isMe }, isMember: members.contains { $0.person.id == me }),
                          context: context)
    }
}
