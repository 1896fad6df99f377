import Countdowns
import CountdownStore
import Foundation

extension CountdownService {
    /// Once per store: countdowns kept before issue #39 held what a calendar
    /// said, not what tminus understood of it (a rule libical cannot read, an
    /// end before the start). Each such row is rewritten as it is understood
    /// now, one transaction per feed (its revision raised, the change logged as
    /// "tminus upgrade", so subscribers and calendar apps fetch it again); the
    /// store's text is then read without `ItemRepair`. Returns the rows rewritten.
    /// Replicas may start at once: a feed rewritten by one is unchanged for the other.
    @discardableResult
    public func repairKeptCountdowns(progress: (@Sendable (String, Int) -> Void)? = nil) async throws -> Int {
        try await authorize(.administer)
        if try await store.setting(.keptCountdownsRepaired) == "on" { return 0 }
        let feeds = try await store.read { try await $0.feedRows(nil, lock: false) }
        var rewritten = 0
        for feed in feeds {
            let feedId = try feed.savedID()
            let count = try await transaction { tx -> Int in
                let repaired = try await tx.countdownRows(.feed(feedId, uid: nil)).compactMap { try $0.repaired() }
                guard !repaired.isEmpty else { return 0 }
                _ = try await tx.saveCountdowns(repaired)
                try await tx.log(.changed, repaired, by: ChangeActor(label: Self.upgradeActor, personId: nil))
                try await tx.touch(feedId: feedId)
                return repaired.count
            }
            if count > 0 { progress?(feed.slug, count) }
            rewritten += count
        }
        try await transaction { tx in try await tx.setSetting(.keptCountdownsRepaired, to: "on") }
        return rewritten
    }

    /// Who the change log says rewrote a countdown at upgrade.
    public static let upgradeActor = "tminus upgrade"
}
