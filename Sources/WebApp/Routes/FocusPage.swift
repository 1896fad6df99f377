import Countdowns
import Foundation
import Hummingbird
import ICalendar
import Pages
import Services

/// `/app/focus` (issue #42): start, pause, resume, extend and stop a focus
/// session, and see what focused time adds up to. Thin: each form calls one
/// use case of `CountdownService+Focus`.
package struct FocusPage: Sendable {
    package let app: WebApp

    struct StartForm: Decodable {
        var tag: String
        var minutes: String?
        var mode: String?
        var keepBreaks: String?
    }

    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("focus") { request, context in try await self.page(request, context) }
        app.post("focus") { request, context in try await self.start(request, context) }
        app.post("focus/stop") { _, context in
            let block = try await self.app.service.stopFocus()
            let words = self.app.words(context)
            return self.app.redirect("/app/focus", flash: block.map { words["flash.focusStopped", ["tag": $0.tag, "time": FocusView.time(seconds: $0.focusedSeconds, words)]] }
                                     ?? words["flash.focusNothing"], context: context)
        }
        app.post("focus/pause") { _, context in
            try await self.app.service.pauseFocus()
            return Response.redirect(to: "/app/focus", type: .normal)
        }
        app.post("focus/resume") { _, context in
            try await self.app.service.resumeFocus()
            return Response.redirect(to: "/app/focus", type: .normal)
        }
        app.post("focus/extend") { _, context in
            try await self.app.service.extendFocus(minutes: 5)
            return Response.redirect(to: "/app/focus", type: .normal)
        }
    }

    private func start(_ request: Request, _ context: WebAppContext) async throws -> Response {
        let form = try await WebForm.decode(StartForm.self, request, limit: 8 << 10)
        let words = app.words(context)
        guard let mode = FocusMode(rawValue: form.mode ?? "down") else { throw HTTPError(.badRequest, message: words["focus.errorInvalid"]) }
        let minutes = form.minutes.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        var plan: PomodoroPlan?
        if mode == .pomodoro { plan = PomodoroPlan(study: minutes ?? 25, shortBreak: 5, longBreak: 15, rounds: 4) }
        do {
            let status = try await app.service.startFocus(tag: form.tag, mode: mode, minutes: minutes, pomodoro: plan, keepBreaks: form.keepBreaks == "on")
            return app.redirect("/app/focus", flash: words["flash.focusStarted", ["tag": status.tag]], context: context)
        } catch let problem as FocusProblem {
            switch problem {
            case .alreadyRunning(let running): return app.redirect("/app/focus", flash: words["focus.errorRunning", ["tag": running.tag]], context: context)
            case .invalid: throw HTTPError(.unprocessableContent, message: words["focus.errorInvalid"])
            default: throw problem
            }
        }
    }

    private func page(_ request: Request, _ context: WebAppContext) async throws -> HTMLPage {
        let words = app.words(context)
        let now = app.clock()
        let status = try await app.service.focus()
        let periodText = request.uri.queryParameters.get("period") ?? CategoryStatistics.Period.week.rawValue
        guard let period = CategoryStatistics.Period(rawValue: periodText) else { throw HTTPError(.badRequest, message: words["error.period"]) }
        let at = request.uri.queryParameters.get("on").flatMap { CivilDate(parsing: String($0)) }
        if let at, !(1900...2200).contains(at.year) { throw HTTPError(.badRequest, message: words["error.at"]) }
        let stats = try await app.service.focusStatistics(period: period, containing: at)
        let span = CategoryStatistics.Span(period, containing: CivilDate(parsing: stats.start) ?? Zone.utc.local(of: now).date)
        let colored = stats.tags.enumerated().map { index, tag in (tag, tag.color ?? FocusView.palette[index % FocusView.palette.count]) }
        let chart = StatisticsChart.svg(span: span, series: colored.map { StatisticsChart.Series(name: $0.0.name, color: $0.1, values: $0.0.perBucket) },
                                        title: words["focus.chartTitle"],
                                        summary: colored.map { "\($0.0.name): \(FocusView.time(seconds: $0.0.seconds, words))" }.joined(separator: ", "), words: words)
        let label: String = switch period {
        case .day: words.language.format(span.start)
        case .week: words["stats.weekOf", ["date": words.language.format(span.start)]]
        case .month: AppDates.month(span.start, in: words.language)
        case .year: String(span.start.year)
        }
        let view = FocusView(
            running: status.map { running(from: $0, words: words, now: now) },
            modes: FocusMode.allCases.map { FocusView.Choice(value: $0.rawValue, label: words["focus.mode\($0.rawValue.capitalized)"], selected: $0 == .down) },
            knownTags: stats.tags.map(\.name),
            periods: CategoryStatistics.Period.allCases.map { FocusView.Choice(value: $0.rawValue, label: words["period.\($0.rawValue)"], selected: $0 == period) },
            periodLabel: label,
            previous: "/app/focus?period=\(period.rawValue)&on=\(span.moved(by: -1).start.iso)",
            next: "/app/focus?period=\(period.rawValue)&on=\(span.moved(by: 1).start.iso)",
            tags: colored.map { tag, color in
                FocusView.Tag(name: tag.name, color: color, time: FocusView.time(seconds: tag.seconds, words), share: "\(Int((tag.share * 100).rounded())) %",
                              width: String(format: "%.1f%%", tag.share * 100))
            },
            total: FocusView.time(seconds: stats.tags.reduce(0) { $0 + $1.seconds }, words),
            chart: chart,
            streak: words["focus.streak", ["n": String(stats.streak), "longest": String(stats.longestStreak)]],
            level: words["focus.level", ["level": String(stats.level.level)]],
            levelPoints: words["focus.levelPoints", ["points": String(stats.level.points), "next": String(stats.level.nextLevelAt)]],
            levelPercent: Int((stats.level.progress * 100).rounded()),
            feed: status?.feed ?? "focus")
        return app.render("focus", title: words["nav.focus"], section: "focus", view, context: context)
    }

    private func running(from status: FocusStatus, words: WebWords, now: Date) -> FocusView.Running {
        let phaseKey = ["study": "focus.phaseStudy", "short-break": "focus.phaseShortBreak", "long-break": "focus.phaseLongBreak"][status.phase] ?? "focus.phaseStudy"
        let countsUp = status.mode == FocusMode.up.rawValue
        let next: String
        if let rounds = status.rounds {
            if status.phase == "study" {
                next = status.round >= rounds ? words["focus.nextLongBreak"] : words["focus.nextBreak"]
            } else {
                next = status.phase == "long-break" ? words["focus.nextEnd"] : words["focus.nextRound", ["round": String(status.round + 1)]]
            }
        } else {
            next = words["focus.nextStop"]
        }
        let remaining = Int(status.remainingSeconds)
        let elapsed = Int(status.elapsedSeconds)
        return FocusView.Running(tag: status.tag, phase: words[phaseKey],
                                 round: status.rounds.map { words["focus.round", ["round": String(status.round), "rounds": String($0)]] },
                                 endsAt: status.phaseEndsAt, phaseStartedAt: status.phaseStartedAt, serverNow: UTCStamp.iso(now),
                                 remaining: remaining, elapsed: elapsed, phaseSeconds: status.phaseMinutes * 60, countsUp: countsUp, paused: status.paused,
                                 next: next, shown: FocusView.clock(countsUp ? elapsed : remaining),
                                 notifyTitle: words["focus.timeUp", ["tag": status.tag]])
    }
}
