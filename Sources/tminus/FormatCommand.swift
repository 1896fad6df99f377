import ArgumentParser
import Foundation
import Countdowns
import ICalendar

/// `tminus format`: rewrite a calendar in the form every client accepts.
struct FormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Rewrite an .ics file in tminus's interoperable form.",
        discussion: """
            CRLF line endings, lines folded at 75 octets without splitting characters, control characters removed, TZIDs renamed to plain Olson names (Windows names included), one compact VTIMEZONE per zone used, and no X-LIC-ERROR properties. What tminus could not read is written as it was read, so that the output validates: a rule libical rejects is left out (the event is its first occurrence), an end before the start is swapped with it, an unknown TZID is written floating, a value that is not of its type is left out, and an event without a usable start is left out; each change is printed. Repeats in another calendar (RSCALE) are spelled out as dates (--rscale). Everything else is kept as it was.
            """
    )

    @Argument(help: "The .ics file, or - for standard input.")
    var file: String

    @Option(name: .shortAndLong, help: ArgumentHelp(OutputFile.help, valueName: "file"))
    var output: String?

    @Flag(help: "Refuse files with errors instead of keeping what is usable.")
    var strict = false

    @Option(help: ArgumentHelp("How repeats in another calendar (RSCALE) are written, as in `tminus export`: 'dates' (the default) "
                               + "as ten years of RDATEs with the rule kept in X-TMINUS-RRULE; 'rule' as they are.", valueName: "dates|rule"))
    var rscale: OtherCalendarDates.Form = .dates

    func run() throws {
        let result = try CalendarInput.readOrExit(file, options: strict ? .strict : .lenient)
        for diagnostic in result.diagnostics {
            FileHandle.standardError.write(Data("\(file): \(diagnostic)\n".utf8))
        }
        // Written as understood, so that the output validates (see CalendarFormat).
        let (calendar, notes) = CalendarFormat.formatted(result.calendar, rscale: rscale, today: Zone.utc.local(of: CommandClock.now()).date)
        for note in notes {
            FileHandle.standardError.write(Data("\(file): \(note)\n".utf8))
        }
        let bytes = Data(CalendarWriter().bytes(calendar))
        try OutputFile.write(bytes, to: output ?? "-")
    }
}
