import ArgumentParser
import Countdowns
import Foundation
import ICalendar

/// `tminus validate`: every problem in a calendar, with line, UID and property.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check an .ics file and report every problem with its line and property.",
        discussion: """
            Exits 0 when the calendar is usable (warnings allowed), 65 when it has errors or is not iCalendar at all, \
            66 when the file is not there.

            Events are counted as the file holds them: a moved or changed instance of a repeat (an event with \
            RECURRENCE-ID) is an event of its own here, and part of its series' one countdown on import.
            """
    )

    @Argument(help: "The .ics file to check, or - for standard input.")
    var file: String

    @Flag(help: "Print the diagnostics as JSON.")
    var json = false

    func run() throws {
        var result = try CalendarInput.readOrExit(file, options: .lenient)
        let calendar = result.calendar
        let kept = CountdownReader.keptWarnings(in: calendar)
        if !kept.isEmpty { result.diagnostics = (result.diagnostics + kept).sorted { $0.line < $1.line } }
        if json {
            let encoder = JSONEncoder.tminusPretty
            let report = Report(file: file, events: calendar.events.count, todos: calendar.todos.count,
                                errors: result.errors.count, warnings: result.warnings.count, diagnostics: result.diagnostics)
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            for diagnostic in result.diagnostics { print("\(file): \(diagnostic)") }
            print("\(file): \(Self.summary(events: calendar.events, todos: calendar.todos.count)); "
                  + "\(result.errors.count.counted("error")), \(result.warnings.count.counted("warning"))")
        }
        if !result.errors.isEmpty { throw ExitCode(ExitStatus.data.rawValue) }
    }

    /// "677 events (181 of them moved instances of a repeat, kept with their
    /// series on import), 2 tasks": why `import` adds fewer than are counted here.
    static func summary(events: [VEvent], todos: Int) -> String {
        let moved = events.count { $0.recurrenceId != nil }
        let series = moved == 0 ? "" : " (\(moved) of them \(moved == 1 ? "a moved instance" : "moved instances") of a repeat, kept with \(moved == 1 ? "its" : "their") series on import)"
        return events.count.counted("event") + series + ", " + todos.counted("task")
    }

    struct Report: Encodable {
        var file: String
        var events: Int
        var todos: Int
        var errors: Int
        var warnings: Int
        var diagnostics: [Diagnostic]
    }
}
