import ArgumentParser
import Countdowns
import CountdownStore
import Foundation
import Services
import Subscriptions
import ICalendar

/// `tminus feeds`: list, add, edit and remove feeds.
struct FeedsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feeds",
        abstract: "List, add, change or remove feeds (named groups of countdowns, each published as a calendar).",
        subcommands: [List.self, Add.self, Edit.self, Remove.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the feeds.")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try reportingErrors {
                let feeds = try await store.withStore(.reading) { try await $0.feeds() }
                if json {
                    // Every setting too, as a feed file or the admin API writes them.
                    let rows = try feeds.map { stored -> [String: Any] in
                        ["slug": stored.feed.slug, "name": stored.feed.name, "timeZone": stored.feed.timeZone,
                         "public": stored.feed.isPublic ? "yes" : "no", "countdowns": String(stored.countdownCount),
                         "settings": try JSONSerialization.jsonObject(with: JSONEncoder().encode(FeedSettingsDocument(stored.feed)))]
                    }
                    print(String(decoding: try JSONSerialization.data(withJSONObject: rows, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
                    return
                }
                if feeds.isEmpty { print("no feeds yet: `tminus import FILE --feed NAME` or `tminus feeds add NAME`"); return }
                for stored in feeds {
                    let feed = stored.feed
                    print("\(feed.slug.padding(toLength: 16, withPad: " ", startingAt: 0)) \(String(stored.countdownCount).leftPad(4)) \(stored.countdownCount == 1 ? "countdown " : "countdowns")  "
                          + "\(feed.timeZone)  \(feed.isPublic ? "public" : "private")  \(feed.name)")
                }
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a feed.",
            discussion: "Example: tminus feeds add family --name Family --tz Europe/Berlin --private")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The slug: lower-case letters, digits and dashes (used in URLs).") var slug: String
        @OptionGroup var settings: FeedOptions

        func validate() throws {
            guard Feed.isValidSlug(slug) else { throw ValidationError(StoreError.invalidSlug(slug).description) }
        }

        func run() throws {
            try reportingErrors {
                var feed = Feed(slug: slug, timeZone: FeedOptions.systemZone)
                try settings.apply(to: &feed)
                _ = try await store.withService { try await $0.createFeed(feed) }
                print("created feed '\(slug)' (\(feed.timeZone), \(feed.isPublic ? "public" : "private"))")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a feed and all its countdowns.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The feed's slug.") var slug: String

        func run() throws {
            try reportingErrors {
                try await store.withService(.changing) { try await $0.deleteFeed(slug: slug) }
                print("deleted feed '\(slug)'")
            }
        }
    }
}

extension String {
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
