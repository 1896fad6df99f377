import ArgumentParser
import Countdowns
import CountdownStore
import Foundation
import Services
import ICalendar

/// `tminus add`: a countdown typed in by hand.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a countdown to a feed.",
        discussion: """
            Examples:
              tminus add "Summer holiday" --date 2027-07-24 --feed family --colors '#FF3B30,#FF9500'
              tminus add "Anna turns {n}" --date 1996-02-29 --repeat yearly --clamp --feed family
              tminus add "Rent" --date 2026-12-01 --repeat monthly --feed bills --alarm -P2D
            In titles, {n} becomes the occurrence number of a yearly repeat (an age) and {nth} its ordinal.
            """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The title.") var title: String
    @Option(help: "The feed; created if it does not exist.") var feed: String
    @OptionGroup var fields: CountdownFields

    func validate() throws {
        guard let date = fields.date else { throw ValidationError("--date is required, as YYYY-MM-DD") }
        if let problem = CivilDate.problem(with: date) { throw ValidationError("--date: \(problem)") }
        guard !title.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("the title is empty") }
        guard Feed.isValidSlug(feed) else { throw ValidationError(StoreError.invalidSlug(feed).description) }
    }

    func run() throws {
        try reportingErrors {
            try await store.withService { service in
                // Every field is checked before the first write: a refused command makes no feed (issue #40).
                let existing = try await service.feed(slug: feed)
                let feedZone = try existing?.feed.timeZone ?? ViewerZone.forCommand(nil).identifier
                let (countdown, image) = try fields.countdown(editing: nil, title: title, feedZone: feedZone, limits: service.limits)
                if existing == nil { _ = try await service.createFeed(Feed(slug: feed, timeZone: feedZone)) }
                let saved = try await service.add(countdown, toFeed: feed, image: image)
                let remaining = RemainingTimeCalculator(now: CommandClock.now(), zone: try ViewerZone.forCommand(nil)).remaining(for: saved)
                print("added #\(try saved.savedID()) to \(feed): \(remaining.title) — \(remaining.text) (\(remaining.date.iso))")
            }
        }
    }
}
