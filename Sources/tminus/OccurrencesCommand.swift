import ArgumentParser
import Foundation
import Countdowns
import ICalendar

/// `tminus occurrences`: every instance of every event and task in a window.
struct OccurrencesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "occurrences",
        abstract: "List the occurrences of a calendar's events and tasks in a time window.",
        discussion: """
            Repeats (RRULE, RDATE, EXDATE) and moved instances (RECURRENCE-ID, RANGE=THISANDFUTURE included) are applied. Cancelled events and instances (STATUS:CANCELLED) are listed and marked, so that a tool can show them struck through. An occurrence is listed when it overlaps [--from, --to): the end is not included. A date on the command line means its midnight in --tz, and all-day events are read as whole days in --tz, so `--from 2026-03-01 --to 2026-03-10` lists the 1st to the 9th, all-day and timed alike. JSON keys: component, uid, summary, start, end, allDay, recurrenceId, status ("cancelled", "tentative", "confirmed", … or null). Timed values are UTC ("YYYY-MM-DDTHH:MM:SSZ"), all-day values are dates ("YYYY-MM-DD").
            """
    )

    @Argument(help: "The .ics file, or - for standard input.")
    var file: String

    @Option(help: "Start of the window (included): YYYY-MM-DD (midnight in --tz) or YYYY-MM-DDTHH:MM:SS[Z].")
    var from: String

    @Option(help: "End of the window, not included (a date's events are not listed), in the same forms as --from.")
    var to: String

    @Option(help: "Zone for floating times, for the window's dates, and for the text output (an Olson name). Default: the calendar's (X-WR-TIMEZONE, or its one VTIMEZONE), else the system's.")
    var tz: String?

    @Option(help: "Output format: json or text.")
    var format: OutputFormat = .text

    @Option(help: "Most occurrences to list; expansion stops there.")
    var limit = 100_000

    @Flag(help: "Treat any error in the file as fatal instead of skipping what is unusable.")
    var strict = false

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case json, text }

    func validate() throws {
        if let tz, Zone.named(tz) == nil { throw ValidationError("--tz: '\(tz)' is not a known time zone (an Olson name such as Europe/Berlin)") }
        guard limit > 0 else { throw ValidationError("--limit must be positive") }
    }

    func run() throws {
        // The window's forms are checked before the file is read; its dates are read in the zone the calendar gives.
        guard WindowBound.parse(from, zone: .utc) != nil else { throw ValidationError("--from '\(from)' is not a date or date-time") }
        guard WindowBound.parse(to, zone: .utc) != nil else { throw ValidationError("--to '\(to)' is not a date or date-time") }
        let result = try CalendarInput.readOrExit(file, options: strict ? .strict : .lenient)
        let zone = try ViewerZone.forCommand(tz, else: ViewerZone.zone(of: result.calendar))
        guard let start = WindowBound.parse(from, zone: zone), let end = WindowBound.parse(to, zone: zone) else { throw ExitCode(ExitStatus.usage.rawValue) }
        guard end > start else { throw ValidationError("--to must be after --from") }
        for diagnostic in result.diagnostics where diagnostic.severity == .error {
            FileHandle.standardError.write(Data("skipped: \(file): \(diagnostic)\n".utf8))
        }
        let calendar = result.calendar
        let expander = OccurrenceExpander(calendar: calendar, floatingZone: zone, cancelled: .include)
        let window = OccurrenceWindow(interval: DateInterval(start: start, end: end), zone: zone)
        var expansion = expander.occurrences(in: calendar, in: window.search, limit: limit)
        expansion.occurrences.removeAll { !window.contains($0) }
        if expansion.truncated {
            FileHandle.standardError.write(Data("warning: stopped after \(limit) occurrences (--limit)\n".utf8))
        }
        switch format {
        case .json: print(String(decoding: OccurrenceListJSON.bytes(expansion.occurrences), as: UTF8.self))
        case .text:
            // The zone is said, so that a time is never read in another (issue #40).
            if expansion.occurrences.isEmpty {
                print("no occurrences between \(from) and \(to) (the end not included), in \(zone.identifier)")
            } else {
                print("times in \(zone.identifier) (--tz for another zone)")
                for occurrence in expansion.occurrences { print(OccurrenceText.line(occurrence, zone: zone)) }
            }
        }
    }
}
