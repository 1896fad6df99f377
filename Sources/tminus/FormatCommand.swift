import ArgumentParser
import Foundation
import ICalendar

/// `tminus format`: rewrite a calendar in the form every client accepts.
struct FormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Rewrite an .ics file in tminus's interoperable form.",
        discussion: """
            CRLF line endings, lines folded at 75 octets without splitting characters, control characters removed, TZIDs renamed to plain Olson names (Windows names included), one compact VTIMEZONE per zone used, and no X-LIC-ERROR properties. Everything else is kept as it was.
            """
    )

    @Argument(help: "The .ics file, or - for standard input.")
    var file: String

    @Option(name: .shortAndLong, help: ArgumentHelp(OutputFile.help, valueName: "file"))
    var output: String?

    @Flag(help: "Refuse files with errors instead of keeping what is usable.")
    var strict = false

    func run() throws {
        let result = try CalendarInput.readOrExit(file, options: strict ? .strict : .lenient)
        for diagnostic in result.diagnostics {
            FileHandle.standardError.write(Data("\(file): \(diagnostic)\n".utf8))
        }
        let bytes = Data(CalendarWriter().bytes(result.calendar))
        try OutputFile.write(bytes, to: output ?? "-")
    }
}
