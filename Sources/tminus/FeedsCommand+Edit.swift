import ArgumentParser
import Countdowns
import CountdownStore
import Foundation
import Services

extension FeedsCommand {
    /// `tminus feeds edit`: change a feed's settings; only the options given change.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a feed's settings (only the options given change).",
            discussion: """
                Examples:
                  tminus feeds edit family --tz Europe/Berlin --name "Family dates"
                  tminus feeds edit family --public --no-alarms
                  tminus feeds edit family --color '' --set sort=title
                A feed that a feed file defines (serve --feeds) is set again from that file when the server loads it.
                """)
        @OptionGroup var store: StoreOptions
        @Argument(help: "The feed's slug (see `tminus feeds list`).") var slug: String
        @OptionGroup var settings: FeedOptions

        func validate() throws {
            if settings.isEmpty { throw ValidationError("nothing to change: give at least one setting (see `tminus feeds edit --help`)") }
        }

        func run() throws {
            try reportingErrors {
                let changed = try await store.withService(.changing) { service -> Bool in
                    let before = try await service.requireFeed(slug: slug).feed
                    var feed = before
                    try settings.apply(to: &feed)
                    guard feed != before else { return false }
                    try await service.saveFeed(feed)
                    return true
                }
                print(changed ? "feed '\(slug)' updated" : "feed '\(slug)': nothing changed")
            }
        }
    }
}
