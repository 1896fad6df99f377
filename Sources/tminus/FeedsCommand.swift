import ArgumentParser
import Countdowns
import CountdownStore
import Foundation
import Services
import Subscriptions
import ICalendar

/// `tminus feeds`: list, add and remove feeds.
struct FeedsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feeds",
        abstract: "List, add or remove feeds (named groups of countdowns, each published as a calendar).",
        subcommands: [List.self, Add.self, Remove.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the feeds.")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try reportingErrors {
                let feeds = try await store.withStore(creating: false) { try await $0.feeds() }
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
                    print("\(feed.slug.padding(toLength: 16, withPad: " ", startingAt: 0)) \(String(stored.countdownCount).leftPad(4)) countdowns  "
                          + "\(feed.timeZone)  \(feed.isPublic ? "public" : "private")  \(feed.name)")
                }
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a feed.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The slug: lower-case letters, digits and dashes (used in URLs).") var slug: String
        @Option(help: "Display name.") var name: String?
        @Option(help: "Description shown by calendar clients.") var description: String?
        @Option(help: "The feed's time zone (Olson name).") var tz = "UTC"
        @Option(help: "Colour, #RRGGBB.") var color: String?
        @Flag(help: "Serve it only under secret token URLs.") var `private` = false
        @Flag(help: "Include VALARMs in the exported calendar.") var alarms = false
        @Option(help: "The days that are not working days, for --unit workdays, e.g. fri,sat. (default: sat,sun)")
        var weekend: String?
        @Option(help: "The slug of the feed whose events are holidays when counting working days.") var holidays: String?
        @Option(help: ArgumentHelp("The feed's language (\(Language.codes.joined(separator: ", "))); default: each viewer's.", valueName: "code"))
        var language: String?
        @Option(name: .customLong("set"), help: ArgumentHelp("""
            Any setting as a feed file writes it, repeatable: --set sort=title \
            --set 'countdown={mode: milestones, milestones: [30, 7, 1]}' (settings: \(FeedSettingsDocument.keys.joined(separator: ", "))).
            """, valueName: "key=value"))
        var assignments: [String] = []

        func validate() throws {
            guard Feed.isValidSlug(slug) else { throw ValidationError(StoreError.invalidSlug(slug).description) }
            guard Zone.named(tz) != nil else { throw ValidationError("--tz '\(tz)' is not a known time zone") }
            if let color, Presentation.normalizeHex(color) == nil { throw ValidationError("--color '\(color)' is not #RRGGBB") }
            var feed = Feed(slug: slug)
            do { try settings.apply(to: &feed) } catch { throw ValidationError("--\(error.message)") }
            let more: FeedSettingsDocument
            do { more = try SettingAssignments.document(assignments) } catch { throw ValidationError(error.description) }
            do { try more.apply(to: &feed) } catch { throw ValidationError("--set \(error.message)") }
        }

        /// `--weekend`, `--holidays` and `--language`, checked by the rules the feed files and the API use.
        private var settings: FeedSettingsDocument {
            var document = FeedSettingsDocument()
            document.weekend = weekend.map { $0.split(separator: ",").map(String.init) }
            document.holidays = holidays
            document.language = language
            return document
        }

        func run() throws {
            try reportingErrors {
                var feed = Feed(slug: slug, name: name, description: description, timeZone: Zone.named(tz)!.identifier,
                                color: color.flatMap(Presentation.normalizeHex), isPublic: !`private`, includeAlarms: alarms)
                try settings.apply(to: &feed)
                try SettingAssignments.document(assignments).apply(to: &feed)
                try await store.withService { try await $0.createFeed(feed) }
                print("created feed '\(slug)'")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a feed and all its countdowns.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The feed's slug.") var slug: String

        func run() throws {
            try reportingErrors {
                try await store.withService(creating: false) { try await $0.deleteFeed(slug: slug) }
                print("deleted feed '\(slug)'")
            }
        }
    }
}

extension String {
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
