import ArgumentParser
import CountdownStore
import Foundation
import Services

/// `tminus users quota`: what each person's feeds, and each space's, may hold
/// (issue #59, 14). One setting in the store, so every replica applies it.
extension UsersCommand {
    struct Quota: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or set the storage quota every person and every space has.",
            discussion: """
                A person's feeds in no space count toward their quota; a space's feeds toward the space's. \
                A write that would go over it is refused (HTTP 507), changing nothing; owners already over \
                a lowered quota keep what they have and may delete. One countdown's text is at most 1 MiB (413). \
                Feeds of no one (feed files', the admin token's) have no quota.

                Examples:
                  tminus users quota                               # the quota now
                  tminus users quota --countdowns 20000 --megabytes 250
                  tminus users quota --reset                       # back to 10000 countdowns, 100 MB, 500 images
                """)
        @OptionGroup var store: StoreOptions
        @Option(help: "Countdowns in all of an owner's feeds.") var countdowns: Int?
        @Option(help: "Megabytes (10^6 bytes) of their countdowns' text.") var megabytes: Int?
        @Option(help: "Countdowns showing an uploaded image (each at most 5 MiB).") var images: Int?
        @Flag(help: "Back to the standard quota.") var reset = false

        func validate() throws {
            for (name, value) in [("countdowns", countdowns), ("megabytes", megabytes), ("images", images)] where (value ?? 0) < 0 {
                throw ValidationError("--\(name) is a number, 0 or more")
            }
            if reset, countdowns != nil || megabytes != nil || images != nil { throw ValidationError("--reset sets every part: give it alone") }
        }

        func run() throws {
            try reportingErrors {
                let changing = reset || countdowns != nil || megabytes != nil || images != nil
                let quota = try await store.withService(changing ? .changing : .reading) { service in
                    guard changing else { return try await service.storageQuota() }
                    var quota = reset ? StorageQuota.standard : try await service.storageQuota()
                    if let countdowns { quota.countdowns = countdowns }
                    if let megabytes { quota.megabytes = megabytes }
                    if let images { quota.images = images }
                    try await service.setStorageQuota(quota)
                    return quota
                }
                print("each person and each space: \(quota.countdowns) countdowns, \(quota.megabytes) MB of text, \(quota.images) images")
            }
        }
    }
}
