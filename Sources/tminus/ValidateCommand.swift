import ArgumentParser
import Countdowns
import Foundation
import ICalendar

/// `tminus validate`: every problem in a calendar, with line, UID and property.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check an .ics file and report every problem with its line and property.",
        discussion: "Exits 0 when the calendar is usable (warnings allowed), 1 when it has errors or is not iCalendar at all."
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
            print("\(file): \(calendar.events.count) event(s), \(calendar.todos.count) task(s); "
                  + "\(result.errors.count) error(s), \(result.warnings.count) warning(s)")
        }
        if !result.errors.isEmpty { throw ExitCode(ExitStatus.data.rawValue) }
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
