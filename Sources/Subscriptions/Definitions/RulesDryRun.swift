import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Logging
import Rules
import Services
import StoreFactory

/// `tminus rules test FEED`: reads every source of a feed definition as the
/// server would (files from disk, URLs fetched with their logins), runs each
/// event through the same `SourceRules.apply` the import runs, then settles
/// duplicates the way the store ends up after every source has been imported
/// (`DuplicatePolicy`: the preferred source's copy stays). Nothing is written.
public enum RulesDryRun {
    /// One event of one source and what became of it.
    public struct Line: Sendable, Encodable {
        public var source: String
        public var uid: String
        public var start: String
        /// The title as the source wrote it.
        public var title: String
        /// The title as the feed shows it, when the rules changed it.
        public var newTitle: String?
        /// `kept`, `changed`, `dropped` or `duplicate`.
        public var result: String
        /// What decided it: the rule keys that changed or dropped it, or the source that wins.
        public var because: [String]
    }

    /// One source's lines, or why it could not be read.
    public struct SourceReport: Sendable, Encodable {
        public var name: String
        public var location: String
        public var error: String?
        public var lines: [Line]
    }

    public struct Report: Sendable, Encodable {
        public var feed: String
        public var dedupe: String?
        public var sources: [SourceReport]

        public var counts: [String: Int] {
            var counts: [String: Int] = [:]
            for line in sources.flatMap(\.lines) { counts[line.result, default: 0] += 1 }
            return counts
        }

        public var failed: Bool { sources.contains { $0.error != nil } }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        /// The feed named is defined nowhere (exit 66, not a refused definition's 65).
        public var isMissing = false
    }

    /// Runs the feed `slug` of the definitions in `directory`, as at `now`.
    public static func run(feed slug: String, directory: URL, now: Date, allowPrivate: Bool = false,
                           fetchTimeout: Duration = .seconds(60)) async throws -> Report {
        try await run(feed: slug, directory: directory, now: now,
                      fetcher: CalendarFetcher(maxBytes: StoreLimits().maxInputBytes, timeout: fetchTimeout, allowPrivate: allowPrivate))
    }

    /// The same with a given fetcher (the server's address policy and deadline).
    package static func run(feed slug: String, directory: URL, now: Date, fetcher: CalendarFetcher) async throws -> Report {
        guard let definition = try definition(of: slug, in: directory) else {
            let known = FeedDefinitionLoader.load(directory: directory).definitions.map(\.feed.slug).sorted()
            throw Failure(description: "no feed '\(slug)' is defined in \(directory.path)"
                + (known.isEmpty ? "" : " (it defines \(known.joined(separator: ", ")))"), isMissing: true)
        }
        return await run(feed: slug, sources: definition.sources, context: RuleContext(now: now, zone: Zone.named(definition.feed.timeZone) ?? .utc),
                         fetcher: fetcher)
    }

    /// `tminus rules test FEED --db …`: the feed's file (when `directory` has
    /// one) and the sources added in the web app or the API, as they are kept
    /// in `store`, their logins opened with the server's key (`secretsKeyFile`,
    /// else the one beside the SQLite file).
    public static func run(feed slug: String, directory: URL?, store: any CountdownStore, database: DatabaseLocation, secretsKeyFile: String?,
                           now: Date, allowPrivate: Bool = false, fetchTimeout: Duration = .seconds(60)) async throws -> Report {
        let defined = try directory.flatMap { directory throws(Failure) in try definition(of: slug, in: directory) } != nil
        guard try await store.feed(slug: slug) != nil || defined else {
            throw Failure(description: "no feed '\(slug)' in the database" + (directory.map { " or in \($0.path)" } ?? ""), isMissing: true)
        }
        var logger = Logger(label: "tminus")
        logger.logLevel = .warning
        let fetcher = CalendarFetcher(maxBytes: StoreLimits().maxInputBytes, timeout: fetchTimeout, allowPrivate: allowPrivate)
        let loader = FeedLoader(service: CountdownService(store: store), fetcher: fetcher, directory: directory, logger: logger,
                                clock: { now }, secrets: try SecretKeeper(configured: secretsKeyFile, database: database, logger: logger))
        await loader.reloadSubscriptions()
        return try await run(feed: slug, loader: loader, fetcher: fetcher)
    }

    /// The server's preview (the web app's and the API's): the feed's file read
    /// again from disk, so an edit shows before the folder is reloaded, and the
    /// sources added in the web app or the API, with their rules.
    package static func run(feed slug: String, loader: FeedLoader, fetcher: CalendarFetcher) async throws -> Report {
        let definition = try loader.directory.flatMap { directory throws(Failure) in try Self.definition(of: slug, in: directory) }
        let context = await loader.ruleContext(for: slug)
        return await run(feed: slug, sources: loader.sources(of: slug, defined: definition?.sources ?? []), context: context, fetcher: fetcher)
    }

    /// The definition of `slug` in `directory`; nil when no file defines it;
    /// the file's error when the file that would is rejected.
    package static func definition(of slug: String, in directory: URL) throws(Failure) -> LoadedFeedDefinition? {
        let (definitions, errors) = FeedDefinitionLoader.load(directory: directory)
        if let definition = definitions.first(where: { $0.feed.slug == slug }) { return definition }
        let fileName = directory.appendingPathComponent(slug + ".yaml").path
        if let error = errors.first(where: { $0.file == fileName || $0.file.hasSuffix("/\(slug).yml") }) { throw Failure(description: "\(error)") }
        return nil
    }

    /// Each source read and run through its rules, then duplicates settled.
    package static func run(feed slug: String, sources: [LoadedFeedDefinition.Source], context: RuleContext, fetcher: CalendarFetcher) async -> Report {
        let limits = StoreLimits()
        var reports: [SourceReport] = []
        var passed: [[(index: Int, countdown: Countdown)]] = []
        for source in sources {
            var report = SourceReport(name: source.name, location: source.location, lines: [])
            var kept: [(Int, Countdown)] = []
            do {
                if let problem = source.problem { throw Failure(description: problem) }
                let bytes: [UInt8]
                if source.isURL {
                    switch try await fetcher.fetch(source.location, credentials: source.credentials) {
                    case .fetched(let fetched, _, _): bytes = fetched
                    case .notModified: bytes = []
                    }
                } else {
                    guard let data = FileManager.default.contents(atPath: source.location) else { throw Failure(description: LocalSourceProblem.problem(at: source.location)) }
                    bytes = [UInt8](data)
                }
                guard bytes.count <= limits.maxInputBytes else { throw StoreError.tooLarge(bytes: bytes.count, limit: limits.maxInputBytes) }
                // Parsing and the rules are CPU work: on the import threads, with the import's budget, never on a request's thread.
                let rules = source.rules, location = source.location
                let results = try await Offload.run {
                    let calendar = try ICalendarParser.parse(data: bytes).calendar
                    let budget = WorkBudget(limit: WorkBudget.rulesPerImport) { WorkerPool.isCancelled }
                    return try CountdownReader.countdowns(in: calendar, source: location).countdowns.map { countdown in
                        let (passing, verdict) = try rules.apply(countdown, in: context, budget: budget)
                        return (countdown, passing, verdict)
                    }
                }
                var seen = Set<String>()
                for (countdown, passing, verdict) in results {
                    var line = Line(source: source.name, uid: countdown.uid, start: Self.start(countdown.target), title: countdown.title, result: "kept",
                                    because: [])
                    switch verdict {
                    case .kept: break
                    case .changed(let keys): line.result = "changed"; line.because = keys
                    case .dropped(let rule): line.result = "dropped"; line.because = [rule]
                    case .duplicate(let winner): line.result = "duplicate"; line.because = [winner]
                    }
                    if let passing {
                        if passing.title != countdown.title { line.newTitle = passing.title }
                        if !seen.insert(passing.uid).inserted {
                            line.result = "duplicate"
                            line.because = ["an earlier event of \(source.name) with this UID"]
                        } else {
                            kept.append((report.lines.count, passing))
                        }
                    }
                    report.lines.append(line)
                }
            } catch {
                report.error = "\(error)"
            }
            reports.append(report)
            passed.append(kept)
        }
        settleDuplicates(in: &reports, passed: passed, sources: sources)
        return Report(feed: slug, dedupe: sources.first?.duplicates?.key.rawValue, sources: reports)
    }

    /// The start as the dry run prints it: `2027-01-12`, `2027-01-12 09:00`
    /// (on the wall clock of its zone), `2027-02-03 08:00Z`.
    package static func start(_ value: DateTimeValue) -> String {
        switch value {
        case .date(let date): return date.iso
        case .floating(let local), .zoned(let local, _): return String(local.iso.replacingOccurrences(of: "T", with: " ").prefix(16))
        case .utc(let local): return String(local.iso.replacingOccurrences(of: "T", with: " ").prefix(16)) + "Z"
        }
    }

    /// Marks the copies the preferred sources' win over: sources in preference
    /// order, the first to hold a UID (or a title and start) keeps it.
    package static func settleDuplicates(in reports: inout [SourceReport], passed: [[(index: Int, countdown: Countdown)]],
                                 sources: [LoadedFeedDefinition.Source]) {
        guard let policy = sources.first?.duplicates else { return }
        var owners: [String: String] = [:]
        var titles: [String: String] = [:]
        let order = policy.preference.compactMap { location in sources.firstIndex { $0.location == location } }
        for sourceIndex in order {
            let source = sources[sourceIndex]
            for (line, countdown) in passed[sourceIndex] {
                let title = policy.key == .titleAndStart ? policy.titleAndStart(of: countdown, from: source.location) : nil
                if let owner = owners[countdown.uid] ?? title.flatMap({ titles[$0] }), owner != source.name {
                    reports[sourceIndex].lines[line].result = "duplicate"
                    reports[sourceIndex].lines[line].because = ["\(owner) wins"]
                    continue
                }
                owners[countdown.uid] = source.name
                if let title { titles[title] = source.name }
            }
        }
    }
}

extension RulesDryRun.Report {
    /// The report as a person reads it: a summary, then each source's events.
    public var text: String {
        var out = ""
        let counts = self.counts
        let total = counts.values.reduce(0, +)
        out += "feed \(feed): \(sources.count) source\(sources.count == 1 ? "" : "s"), \(total) event\(total == 1 ? "" : "s"): "
        out += ["kept", "changed", "dropped", "duplicate"].map { "\(counts[$0] ?? 0) \($0)" }.joined(separator: ", ")
        if let dedupe, sources.count > 1 { out += " (duplicates by \(dedupe))" }
        out += "\n"
        for source in sources {
            out += "\n\(source.name)  \(source.location)\n"
            if let error = source.error { out += "  cannot be read: \(error)\n"; continue }
            if source.lines.isEmpty { out += "  (no events)\n" }
            for line in source.lines {
                var row = "  " + line.result.padding(toLength: 10, withPad: " ", startingAt: 0) + line.start.padding(toLength: 18, withPad: " ", startingAt: 0)
                    + SafeText.clean(line.newTitle.map { "\(line.title) → \($0)" } ?? line.title)
                if !line.because.isEmpty { row += "  [\(line.because.joined(separator: ", "))]" }
                out += row + "\n"
            }
        }
        return out
    }
}
