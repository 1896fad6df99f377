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
    @Option(name: .shortAndLong, help: "Write here instead of standard output.") var output: String?
    @Flag(inversion: .prefixedNo, help: "Include VALARMs (a download keeps them; subscribed feeds follow the feed's setting).")
    var alarms = true

    func run() throws {
        try reportingErrors {
            let store = try await store.open()
            guard let stored = try await store.feed(slug: feed) else { throw StoreError.feedNotFound(feed) }
            var definition = stored.feed
            definition.includeAlarms = alarms
            let calendar = CalendarExport.calendar(feed: definition, countdowns: try await store.countdowns(inFeed: feed))
            let bytes = Data(CalendarWriter().bytes(calendar))
            if let output { try bytes.write(to: URL(fileURLWithPath: output), options: .atomic) } else { FileHandle.standardOutput.write(bytes) }
        }
    }
}
