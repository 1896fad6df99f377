import ArgumentParser
import Foundation
import Subscriptions

/// `tminus rules test FEED`: what a feed's rules do to each event of its
/// sources, without writing anything.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Try a feed definition's rules (include, exclude, change, dedupe) on its sources.",
        subcommands: [Test.self],
        defaultSubcommand: Test.self
    )

    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show, for each event of a feed's sources, whether its rules kept, changed or dropped it, and which rule did.",
            discussion: """
                Reads feeds/FEED.yaml (or the file that defines FEED), reads its file sources and fetches its URL sources \
                with their logins, and runs every event through the same rules an import runs. With --db, the sources \
                added in the web app or the API (kept in that database, with their own rules) are run too, and a feed \
                made in the web app needs no file. Nothing is written.
                Exits 65 when the definition is refused (an unknown key is named with its file and line) or a source \
                cannot be read, and 66 when no file defines FEED.

                Examples:
                  tminus rules test birthdays --feeds feeds
                  tminus rules test school --db /var/lib/tminus/tminus.sqlite
                """
        )

        @Argument(help: "The feed's slug.") var feed: String
        @Option(help: "Folder of feed definitions (*.yaml).") var feeds = "feeds"
        @Option(help: "Evaluate relative windows (from: -7d) as on this day (YYYY-MM-DD), not today.") var on: String?
        @Flag(help: "Allow URL sources on private and loopback addresses (as `serve --allow-private-sources`).")
        var allowPrivateSources = false
        @Flag(help: "Print JSON.") var json = false
        @Option(help: "Also the sources added in the web app or the API, from this database (a SQLite file or a postgres:// URL).")
        var db: String?
        @Option(help: "With --db: the key file that opens saved logins (default: tminus-secrets-key beside the SQLite file).")
        var secretsKeyFile: String?

        func run() throws {
            var isDirectory: ObjCBool = false
            let hasFolder = FileManager.default.fileExists(atPath: feeds, isDirectory: &isDirectory) && isDirectory.boolValue
            guard hasFolder || db != nil else { throw ValidationError("--feeds \(feeds) is not a folder") }
            var now = CommandClock.now()
            if let on {
                let parser = ISO8601DateFormatter()
                parser.formatOptions = [.withFullDate]
                guard let day = parser.date(from: on) else { throw ValidationError("--on '\(on)' is not a date (YYYY-MM-DD)") }
                now = day.addingTimeInterval(12 * 3600)
            }
            let directory = URL(fileURLWithPath: feeds, isDirectory: true)
            let (feed, json, allow, keyFile) = (feed, json, allowPrivateSources, secretsKeyFile)
            let database = try db.map { try StoreOptions.parse(["--db", $0]) }
            try reportingErrors {
                let report: RulesDryRun.Report
                if let database {
                    let location = try database.location()
                    report = try await database.withStore(.reading) { store in
                        try await RulesDryRun.run(feed: feed, directory: hasFolder ? directory : nil, store: store, database: location,
                                                  secretsKeyFile: keyFile, now: now, allowPrivate: allow)
                    }
                } else {
                    report = try await RulesDryRun.run(feed: feed, directory: directory, now: now, allowPrivate: allow)
                }
                if json {
                    print(String(decoding: try JSONEncoder.tminusPretty.encode(report), as: UTF8.self))
                } else {
                    print(report.text, terminator: "")
                }
                if report.failed { throw ExitCode(ExitStatus.data.rawValue) }
            }
        }
    }
}
