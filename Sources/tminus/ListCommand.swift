import ArgumentParser
import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// `tminus list`: a feed's countdowns with the time remaining, soonest first.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show a feed's countdowns and how long is left.",
        discussion: "JSON (--json) has the same versioned shape as the server's /feeds/{slug}.json."
    )

    @OptionGroup var store: StoreOptions
    @Option(help: "The feed.") var feed: String
    @Option(help: "Your time zone (days are counted in it). Default: $TZ or the system's.") var tz: String?
    @Option(help: "dynamic, days, weeks, months, years, detailed or workdays (default: each countdown's own).") var unit: DisplayUnit?
    @Option(help: "Sort by remaining or title.") var sort: FeedSnapshot.Sort = .remaining
    @Flag(help: "Print JSON.") var json = false
    @Option(help: ArgumentHelp("The language of the text: \(Language.codes.joined(separator: ", ")). (default: the feed's, else $LANG's when tminus speaks it, else en)",
                               valueName: "code"))
    var lang: String?

    func validate() throws {
        if let lang, Language.named(lang) == nil {
            throw ValidationError("--lang '\(lang)' is not a language tminus speaks (use one of \(Language.codes.joined(separator: ", ")))")
        }
    }

    func run() throws {
        try reportingErrors {
            let store = try await store.open()
            guard let stored = try await store.feed(slug: feed) else { throw StoreError.feedNotFound(feed) }
            let now = Date()
            let language = lang.flatMap(Language.named) ?? stored.feed.language
                ?? ProcessInfo.processInfo.environment["LANG"].flatMap { Language.named(String($0.prefix { $0 != "." })) } ?? .english
            let calculator = RemainingTimeCalculator(now: now, zone: try ViewerZone.resolve(tz), maxOccurrences: store.limits.maxOccurrences,
                                                     workingDays: try await store.workingDays(of: stored.feed, now: now), language: language)
            let snapshot = FeedSnapshot(feed: stored.feed, countdowns: try await store.countdowns(inFeed: feed), calculator: calculator,
                                        unit: unit, sort: sort)
            if json {
                print(String(decoding: try JSONEncoder.tminusPretty.encode(snapshot), as: UTF8.self))
                return
            }
            if snapshot.countdowns.isEmpty { print("\(feed) has no countdowns yet"); return }
            for row in snapshot.countdowns {
                let id = row.id.map { "#\($0)" } ?? ""
                let progress = row.progress.map { " (\(Int(($0 * 100).rounded()))%)" } ?? ""
                print("\(id.leftPad(5))  \(row.text.leftPad(14))  \(row.date)  \(row.title)\(progress)")
            }
        }
    }
}

extension FeedSnapshot.Sort: ExpressibleByArgument {}
