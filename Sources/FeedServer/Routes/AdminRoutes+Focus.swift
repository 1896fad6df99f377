import Countdowns
import Foundation
import HTTPSupport
import Hummingbird
import ICalendar
import Services

/// Focus sessions in the admin API (issue #42), for a person's token: the
/// running session, start and stop, pause, resume, extend, and what it adds up to.
extension AdminRoutes {
    struct FocusInput: Decodable {
        var tag: String
        var minutes: Int?
        /// down (default), up or pomodoro.
        var mode: String?
        var pomodoro: PomodoroPlan?
        var keepBreaks: Bool?
    }

    struct FocusState: Encodable {
        var running: Bool
        var session: FocusStatus?
    }

    struct FocusStopped: Encodable {
        struct Kept: Encodable {
            var tag: String
            var start: String
            var end: String
            var focusedSeconds: Int
        }

        /// The study kept in the focus feed; nil when nothing was focused yet.
        var kept: Kept?
    }

    struct ExtendInput: Decodable {
        var minutes: Int
    }

    func registerFocus(on api: RouterGroup<ServerContext>) {
        api.get("focus") { _, _ in
            let session = try await self.service.focus()
            return try AdminJSON.encode(FocusState(running: session != nil, session: session))
        }
        api.post("focus") { request, _ in
            let input = try await AdminJSON.decode(FocusInput.self, request, limit: 4 << 10)
            guard let mode = FocusMode(rawValue: input.mode ?? FocusMode.down.rawValue) else {
                throw FocusProblem.invalid(FocusInvalid(field: "mode", message: "'\(input.mode ?? "")' is not down, up or pomodoro"))
            }
            let status = try await self.service.startFocus(tag: input.tag, mode: mode, minutes: input.minutes, pomodoro: input.pomodoro,
                                                           keepBreaks: input.keepBreaks ?? false)
            return try AdminJSON.encode(status, status: .created)
        }
        api.post("focus/stop") { _, _ in
            let block = try await self.service.stopFocus()
            return try AdminJSON.encode(FocusStopped(kept: block.map {
                .init(tag: $0.tag, start: UTCStamp.iso($0.start), end: UTCStamp.iso($0.end), focusedSeconds: $0.focusedSeconds)
            }))
        }
        api.post("focus/pause") { _, _ in try AdminJSON.encode(try await self.service.pauseFocus()) }
        api.post("focus/resume") { _, _ in try AdminJSON.encode(try await self.service.resumeFocus()) }
        api.post("focus/extend") { request, _ in
            let input = try await AdminJSON.decode(ExtendInput.self, request, limit: 1 << 10)
            return try AdminJSON.encode(try await self.service.extendFocus(minutes: input.minutes))
        }
        api.get("focus/stats") { request, _ in
            let query = request.uri.queryParameters
            let periodText = query.get("period") ?? CategoryStatistics.Period.week.rawValue
            guard let period = CategoryStatistics.Period(rawValue: periodText) else {
                throw HTTPError(.badRequest, message: "period: '\(periodText)' is not day, week, month or year")
            }
            var day: CivilDate?
            if let on = query.get("on"), !on.isEmpty {
                guard let parsed = CivilDate(parsing: on) else { throw HTTPError(.badRequest, message: "on: \(CivilDate.problem(with: on) ?? on)") }
                day = parsed
            }
            return try AdminJSON.encode(try await self.service.focusStatistics(period: period, containing: day))
        }
    }
}
