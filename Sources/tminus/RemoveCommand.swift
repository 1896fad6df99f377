import ArgumentParser
import CountdownStore

/// `tminus rm`: delete countdowns by id.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete countdowns by id.")

    @OptionGroup var store: StoreOptions
    @Argument(help: "One or more ids (see `tminus list`).") var ids: [Int64]

    func validate() throws { if ids.isEmpty { throw ValidationError("give at least one id") } }

    func run() throws {
        try reportingErrors {
            try await store.withService(.changing) { service in
                for id in ids {
                    let (countdown, feed) = try await service.countdown(id: id)
                    try await service.delete(id: id)
                    print("deleted #\(id) from \(feed): \(countdown.title)")
                }
            }
        }
    }
}
