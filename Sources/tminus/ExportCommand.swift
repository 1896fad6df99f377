import ArgumentParser
import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// `tminus export`: a feed as one .ics file, repeats kept as RRULE.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a feed's countdowns as an .ics calendar (stable UIDs, repeats as RRULE).",
        discussion: "Re-importing the export changes nothing: presentation travels in X-TMINUS-* properties."
    )

    @OptionGroup var store: StoreOptions
    @Option(help: "The feed.") var feed: String
    @Option(name: .shortAndLong, help: ArgumentHelp(OutputFile.help, valueName: "file")) var output: String?
    @Flag(inversion: .prefixedNo, help: "Include VALARMs (a download keeps them; subscribed feeds follow the feed's setting).")
    var alarms = true
    @Option(help: ArgumentHelp("How repeats in another calendar (RSCALE=CHINESE, HEBREW …) are written: 'dates' (the default) "
                               + "writes their dates for ten years as RDATEs and keeps the rule in X-TMINUS-RRULE, which every client "
                               + "reads; 'rule' writes the RSCALE rule with the dates, which Apple reads but khal and Python's "
                               + "recurring-ical-events refuse.", valueName: "dates|rule"))
    var rscale: OtherCalendarDates.Form = .dates
    @Option(help: "Years of dates to spell out for --rscale.") var years = 10

    func validate() throws {
        guard (1...100).contains(years) else { throw ValidationError("--years must be from 1 to 100") }
    }

    func run() throws {
        try reportingErrors {
            try await store.withService(.reading) { service in
                // Read as the server compiles it: the feed as it is exported, with every countdown.
                let (stored, countdowns) = try await service.feedContents(slug: feed)
                var definition = stored.feed
                definition.includeAlarms = alarms
                let today = definition.zone.local(of: CommandClock.now()).date
                let bytes = Data(CalendarExport.bytes(feed: definition, countdowns: countdowns,
                                                      otherCalendarDates: OtherCalendarDates(form: rscale, today: today, years: years)))
                try OutputFile.write(bytes, to: output ?? "-")
            }
        }
    }
}

extension OtherCalendarDates.Form: ExpressibleByArgument {}
