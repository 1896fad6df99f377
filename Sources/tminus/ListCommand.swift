import ArgumentParser
import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// `tminus list`: a feed's countdowns with the time remaining, soonest first;
/// without `--feed`, every feed's in turn, each under its name.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show a feed's countdowns (or every feed's) and how long is left.",
        discussion: """
            Without --feed, every feed is listed in turn under its name. JSON (--json) has the same versioned shape as the \
            server's /feeds/{slug}.json; without --feed it is an array of those, one per feed. Days are counted in each \
            feed's zone unless --tz names another. A countdown with a start (--from on `add`) shows how much of its \
            span has gone, e.g. "(40% of the span gone)".
            """
    )

    @OptionGroup var store: StoreOptions
    @Option(help: "The feed (default: every feed, one after another).") var feed: String?
    @Option(help: "Your time zone (days are counted in it). Default: each feed's zone.") var tz: String?
    @Option(help: "dynamic, days, weeks, months, years, detailed or workdays (default: each countdown's own).") var unit: DisplayUnit?
    @Option(help: "Sort by remaining or title.") var sort: FeedSnapshot.Sort = .remaining
    @Option(help: "Show at most this many countdowns of each feed (the soonest, or the first by --sort).") var limit: Int?
    @Option(help: "Show only countdowns whose date is on or after this day, YYYY-MM-DD (an anniversary counts by its next date).")
    var since: String?
    @Flag(help: "Print JSON.") var json = false
    @Option(help: ArgumentHelp("The language of the text: \(Language.codes.joined(separator: ", ")). (default: the feed's, else $LANG's when tminus speaks it, else en)",
                               valueName: "code"))
    var lang: String?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more") }
        if let since, let problem = CivilDate.problem(with: since) { throw ValidationError("--since: \(problem)") }
        if let lang, Language.named(lang) == nil {
            throw ValidationError("--lang '\(lang)' is not a language tminus speaks (use one of \(Language.codes.joined(separator: ", ")))")
        }
    }

    func run() throws {
        try reportingErrors {
            try await store.withService(.reading) { service in
                let feeds = if let feed { [try await service.requireFeed(slug: feed)] } else { try await service.feeds() }
                let now = CommandClock.now()
                var snapshots: [FeedSnapshot] = []
                for stored in feeds {
                    let zone = try ViewerZone.forCommand(tz, else: stored.feed.timeZone)
                    let language = lang.flatMap(Language.named) ?? stored.feed.language
                        ?? ProcessInfo.processInfo.environment["LANG"].flatMap { Language.named(String($0.prefix { $0 != "." })) } ?? .english
                    let calculator = RemainingTimeCalculator(now: now, zone: zone, maxOccurrences: service.limits.maxOccurrences,
                                                             workingDays: try await service.workingDays(of: stored.feed, now: now), language: language)
                    var snapshot = FeedSnapshot(feed: stored.feed, countdowns: try await service.countdowns(inFeed: stored.feed.slug),
                                                calculator: calculator, unit: unit, sort: sort)
                    if let since = since.flatMap(CivilDate.init(parsing:)) { snapshot.countdowns.removeAll { $0.date < since.iso } }
                    if let limit, snapshot.countdowns.count > limit { snapshot.countdowns.removeLast(snapshot.countdowns.count - limit) }
                    snapshots.append(snapshot)
                }
                if json {
                    let encoded = feed == nil ? try JSONEncoder.tminusPretty.encode(snapshots) : try JSONEncoder.tminusPretty.encode(snapshots[0])
                    print(String(decoding: encoded, as: UTF8.self))
                    return
                }
                if feeds.isEmpty { print("no feeds yet: `tminus import FILE --feed NAME` or `tminus feeds add NAME`"); return }
                for (index, snapshot) in snapshots.enumerated() {
                    let slug = feeds[index].feed.slug
                    if feed == nil { print((index == 0 ? "" : "\n") + "== \(slug): \(feeds[index].feed.name)") }
                    if snapshot.countdowns.isEmpty { print("\(slug) has no countdowns yet"); continue }
                    for row in snapshot.countdowns {
                        let id = row.id.map { "#\($0)" } ?? ""
                        let progress = row.progress.map { " (\(Int(($0 * 100).rounded()))% of the span gone)" } ?? ""
                        print("\(id.leftPad(5))  \(row.text.leftPad(14))  \(row.date)  \(row.title)\(progress)")
                    }
                }
            }
        }
    }
}

extension FeedSnapshot.Sort: ExpressibleByArgument {}
