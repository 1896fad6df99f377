import ArgumentParser
import Countdowns
import CountdownStore
import Foundation
import Services

/// `tminus edit`: change fields of a countdown; SEQUENCE rises when anything changed.
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a countdown (only the options given change).",
        discussion: "Example: tminus edit 3 --title \"Summer holiday 🏖\" --date 2027-07-31"
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The countdown's id (see `tminus list`).") var id: Int64
    @Option(help: "A new title.") var title: String?
    @OptionGroup var fields: CountdownFields

    func run() throws {
        try reportingErrors {
            try await store.withService(.changing) { service in
                let (loaded, feedSlug) = try await service.countdown(id: id)
                let feedZone = try await service.feed(slug: feedSlug)?.feed.timeZone ?? "UTC"
                let (countdown, image) = try fields.countdown(editing: loaded, title: title, feedZone: feedZone, limits: service.limits)
                let saved = try await service.save(countdown, inFeed: feedSlug, image: image, moveTo: nil)
                print(saved.sequence == loaded.sequence ? "#\(id): nothing changed" : "#\(id) updated (sequence \(saved.sequence))")
            }
        }
    }
}
