import ArgumentParser
import FeedServer
import Foundation

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
                with their logins, and runs every event through the same rules an import runs. Nothing is written.
                Exits 1 when the definition is rejected or a source cannot be read.

                Example:
                  tminus rules test family --feeds feeds
                """
        )

        @Argument(help: "The feed's slug.") var feed: String
        @Option(help: "Folder of feed definitions (*.yaml).") var feeds = "feeds"
        @Option(help: "Evaluate relative windows (from: -7d) as on this day (YYYY-MM-DD), not today.") var on: String?
        @Flag(help: "Allow URL sources on private and loopback addresses (as `serve --allow-private-sources`).")
        var allowPrivateSources = false
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: feeds, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--feeds \(feeds) is not a folder")
            }
            var now = Date()
            if let on {
                let parser = ISO8601DateFormatter()
                parser.formatOptions = [.withFullDate]
                guard let day = parser.date(from: on) else { throw ValidationError("--on '\(on)' is not a date (YYYY-MM-DD)") }
                now = day.addingTimeInterval(12 * 3600)
            }
            let directory = URL(fileURLWithPath: feeds, isDirectory: true)
            let (feed, json, allow) = (feed, json, allowPrivateSources)
            try reportingErrors {
                let report = try await RulesDryRun.run(feed: feed, directory: directory, now: now, allowPrivate: allow)
                if json {
                    print(String(decoding: try JSONEncoder.tminusPretty.encode(report), as: UTF8.self))
                } else {
                    print(report.text, terminator: "")
                }
                if report.failed { throw ExitCode(1) }
            }
        }
    }
}
