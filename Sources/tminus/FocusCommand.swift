import ArgumentParser
import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Services

/// `tminus focus`: a focus session, counted on the server so that every
/// device shows the same one; each finished stretch is an event of the
/// person's focus feed (`focus`), and `focus stats` adds them up.
struct FocusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus",
        abstract: "Focus sessions: a timer that counts, and focused time that lands in your calendar.",
        discussion: """
            Examples:
              tminus focus start Maths --minutes 25        # counts down 25 minutes
              tminus focus start Reading --up --minutes 45 # counts up to 45 minutes
              tminus focus start Physics --pomodoro        # 25 min study, 5 min breaks, a 15 min break after 4 rounds
              tminus focus status
              tminus focus stop                            # keeps what was done
              tminus focus stats --period week
              tminus focus import timer-export.ics --tag Maths        # focus blocks kept elsewhere
              tminus focus import calendar.ics --category Study      # only the events in that category
            Each finished study is an event of your focus feed (`focus`, private): export it with \
            `tminus export --feed focus`, or subscribe to it with a token link. A running session shows there as a busy block.
            """,
        subcommands: [Start.self, Stop.self, Status.self, Pause.self, Resume.self, Extend.self, Stats.self, Import.self],
        defaultSubcommand: Status.self
    )

    /// `--db` and whose focus it is.
    struct Who: ParsableArguments {
        @OptionGroup var store: StoreOptions
        @Option(name: [.customLong("login"), .customLong("as")],
                help: "Whose focus (default: the only person; on a new database, this login becomes the first account).") var login: String?

        /// Runs `body` as the person; says so when their account was made now.
        /// Commands that only look (`.changing`) make no account on a new database.
        func run<T>(_ access: StoreAccess = .creating, _ body: @escaping (CountdownService) async throws -> T) async throws -> T {
            try await store.withService(access) { service in
                let (person, made): (PersonAccess, Bool)
                do { (person, made) = try await service.operatorsPerson(login: login, makingFirst: access == .creating) } catch StoreError.personNotFound where login == nil {
                    throw CLIError("nobody has an account here yet: make yours first (`tminus password anna`), or say whose focus this is "
                                   + "with `--login anna`, which makes that account", status: .noInput)
                }
                if made { printError("made the first account, '\(person.login)', an administrator (`tminus password \(person.login)` sets its password, to sign in at /app)") }
                return try await body(service.acting(as: .person(person)))
            }
        }
    }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Start a session (one at a time).")
        @OptionGroup var who: Who
        @Argument(help: "What you focus on: a category of your focus feed, made if new (e.g. Maths).") var tag: String
        @Option(help: "The length, 1 to 180 minutes (default 25); with --pomodoro, the study length.") var minutes: Int?
        @Flag(help: "Count up from the start instead of down to the end.") var up = false
        @Flag(help: "Pomodoro rounds: study, short break, …, and a long break after the last round.") var pomodoro = false
        @Option(help: "A Pomodoro's short break, in minutes (default 5).") var shortBreak: Int?
        @Option(help: "A Pomodoro's long break, in minutes (default 15).") var longBreak: Int?
        @Option(help: "A Pomodoro's rounds before the long break (default 4).") var rounds: Int?
        @Flag(help: "Keep breaks as events of their own (default: left out).") var keepBreaks = false

        func validate() throws {
            if up && pomodoro { throw ValidationError("--up and --pomodoro: a Pomodoro counts down each phase; choose one") }
            if !pomodoro, shortBreak != nil || longBreak != nil || rounds != nil {
                throw ValidationError("--short-break, --long-break and --rounds are for --pomodoro")
            }
            if let minutes, !FocusSession.minuteRange.contains(minutes) { throw ValidationError("--minutes: \(minutes) is not from 1 to 180") }
            if let problem = plan?.problem { throw ValidationError("--pomodoro: \(problem)") }
        }

        private var plan: PomodoroPlan? {
            guard pomodoro else { return nil }
            let standard = PomodoroPlan.standard
            return PomodoroPlan(study: minutes ?? standard.study, shortBreak: shortBreak ?? standard.shortBreak,
                                longBreak: longBreak ?? standard.longBreak, rounds: rounds ?? standard.rounds)
        }

        func run() throws {
            try reportingErrors {
                let mode: FocusMode = pomodoro ? .pomodoro : up ? .up : .down
                let status = try await who.run { try await $0.startFocus(tag: tag, mode: mode, minutes: minutes, pomodoro: plan, keepBreaks: keepBreaks,
                                                                          zone: try ViewerZone.forCommand(nil).identifier) }
                print("started: " + FocusText.line(status))
            }
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop the running session; what was done is kept.")
        @OptionGroup var who: Who

        func run() throws {
            try reportingErrors {
                let block = try await who.run(.changing) { try await $0.stopFocus() }
                print(block.map { "stopped: \($0.tag), \($0.focusedText) kept in your focus feed ('focus' by default)" } ?? "stopped: nothing was focused yet, nothing kept")
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the running session.")
        @OptionGroup var who: Who
        @Flag(help: "Print JSON (as GET /api/focus).") var json = false

        func run() throws {
            try reportingErrors {
                let status = try await who.run(.changing) { try await $0.focus() }
                if json {
                    print(status.map { String(decoding: (try? JSONEncoder.tminusPretty.encode($0)) ?? Data(), as: UTF8.self) } ?? "null")
                } else {
                    print(status.map { "running: " + FocusText.line($0) } ?? "no session is running (`tminus focus start TAG` starts one)")
                }
            }
        }
    }

    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Pause the running session (its end moves by the pause).")
        @OptionGroup var who: Who
        func run() throws { try reportingErrors { print("paused: " + FocusText.line(try await who.run(.changing) { try await $0.pauseFocus() })) } }
    }

    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Resume a paused session.")
        @OptionGroup var who: Who
        func run() throws { try reportingErrors { print("resumed: " + FocusText.line(try await who.run(.changing) { try await $0.resumeFocus() })) } }
    }

    struct Extend: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make the current phase longer.")
        @OptionGroup var who: Who
        @Argument(help: "Minutes to add.") var minutes: Int
        func run() throws {
            try reportingErrors { print("extended: " + FocusText.line(try await who.run(.changing) { try await $0.extendFocus(minutes: minutes) })) }
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Focused time per tag over a day, week, month or year; streaks and level.")
        @OptionGroup var who: Who
        @Option(help: "day, week, month or year (default: week).") var period: CategoryStatistics.Period = .week
        @Option(help: "A day in the period, YYYY-MM-DD (default: today).") var on: String?
        @Flag(help: "Print JSON (as GET /api/focus/stats).") var json = false

        func validate() throws {
            if let on, let problem = CivilDate.problem(with: on) { throw ValidationError("--on: \(problem)") }
        }

        func run() throws {
            try reportingErrors {
                let stats = try await who.run(.changing) { try await $0.focusStatistics(period: period, containing: on.flatMap(CivilDate.init(parsing:))) }
                if json { print(String(decoding: try JSONEncoder.tminusPretty.encode(stats), as: UTF8.self)); return }
                print("\(stats.period) from \(stats.start) to \(stats.end) (the end not included): \(FocusText.time(seconds: stats.tags.reduce(0) { $0 + $1.seconds })) focused")
                for tag in stats.tags {
                    print("  \(tag.name.padding(toLength: 20, withPad: " ", startingAt: 0)) \(FocusText.time(seconds: tag.seconds).leftPad(14))  \(Int((tag.share * 100).rounded()))%")
                }
                print("streak: \(stats.streak.counted("day")) (longest \(stats.longestStreak)); level \(stats.level.level), "
                      + "\(stats.level.points) of \(stats.level.nextLevelAt) points to the next")
            }
        }
    }
}

extension FocusCommand {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add focus blocks kept elsewhere (timed events) to your focus history.")
        @OptionGroup var who: Who
        @Argument(help: "The .ics file of focus blocks.") var file: String
        @Option(help: "Only the events in this category (default: every timed event with a category, or with --tag).") var category: String?
        @Option(help: "The tag the blocks count for (default: each event's own first category).") var tag: String?

        func run() throws {
            try reportingErrors {
                if let problem = CalendarInput.problem(with: file) { throw CLIError(problem, status: .noInput) }
                let report = try await who.run { try await $0.importFocusBlocks(contentsOf: URL(fileURLWithPath: file), category: category, tag: tag) }
                print("focus: \(report)")
            }
        }
    }
}

extension CategoryStatistics.Period: ExpressibleByArgument {}

/// How the command line says a session and an amount of focused time.
enum FocusText {
    static func line(_ status: FocusStatus) -> String {
        let left = Int(status.remainingSeconds.rounded(.up))
        let clock = String(format: "%d:%02d", left / 60, left % 60)
        let phase = status.phase == FocusPhase.study.rawValue ? "" : " (\(status.phase.replacingOccurrences(of: "-", with: " ")))"
        let round = status.rounds.map { ", round \(status.round) of \($0)" } ?? ""
        let counted = status.mode == FocusMode.up.rawValue ? "\(Int(status.elapsedSeconds) / 60) of \(status.phaseMinutes) min done" : "\(clock) left"
        return "\(status.tag)\(phase)\(round), \(counted)\(status.paused ? ", paused" : ""); ends \(status.phaseEndsAt) (feed '\(status.feed)')"
    }

    /// "1 h 5 min", "25 min", "under a minute".
    static func time(seconds: Int) -> String {
        guard seconds >= 30 else { return seconds > 0 ? "under a minute" : "0 min" }
        let total = (seconds + 30) / 60
        return total >= 60 ? "\(total / 60) h \(total % 60) min" : "\(total) min"
    }
}
