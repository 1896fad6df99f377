import ArgumentParser
import CountdownStore
import Foundation
import Services

/// `tminus migrate`: brings a database's schema up to date, explicitly
/// (`serve` does it too, at start), and says where it stands.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Bring the database's schema up to date and list the migrations it has.",
        discussion: """
            Safe to run at any time and on any number of machines at once: a migration runs once, and \
            replicas that start together on one PostgreSQL take turns. `tminus serve` migrates at start too.

            Examples:
              tminus migrate --db postgres://tminus@db.internal/tminus
              tminus migrate --db /var/lib/tminus/tminus.sqlite
            """
    )

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingErrors {
            try await store.withStore { store in
                let applied = try await store.appliedMigrations()
                for name in applied { print("applied  \(name)") }
                let repaired = try await CountdownService(store: store).acting(as: .commandLine).repairKeptCountdowns { feed, count in
                    print("rewrote  \(count) countdown\(count == 1 ? "" : "s") of \(feed) as they are understood (issue #39)")
                }
                // Rows kept before 0.14 get their place in their feed's list (issue #41); a running server would do it too.
                let placed = try await CountdownService(store: store).acting(as: .commandLine).placeCountdowns { count in
                    print("placed   \(count.counted("countdown")) in their feeds' lists so far")
                }
                let done = [repaired > 0 ? "\(repaired.counted("countdown")) rewritten" : nil, placed > 0 ? "\(placed.counted("countdown")) placed" : nil]
                print("\(store.location): up to date (\(([applied.count.counted("migration")] + done.compactMap { $0 }).joined(separator: ", ")))")
            }
        }
    }
}
