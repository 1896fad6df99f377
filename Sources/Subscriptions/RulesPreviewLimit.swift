import Foundation
import Synchronization

/// How often a feed's rules preview may fetch its sources: each preview
/// fetches every URL source with its kept login, so a page reloaded in a loop
/// (or a script) would make the server fetch someone's calendar on demand
/// (issue #59: a viewer's token fetched the sources 45 times). A feed gets
/// `limit` previews a `window`; past that the caller is told how long to wait.
package final class RulesPreviewLimit: Sendable {
    package let limit: Int
    package let window: TimeInterval
    private let recent = Mutex<[String: [Date]]>([:])

    package init(limit: Int = 4, window: TimeInterval = 60) {
        self.limit = limit
        self.window = window
    }

    /// Counts a preview of `feed` and returns nil, or the seconds to wait (then nothing is counted).
    package func admit(feed: String, now: Date) -> Int? {
        recent.withLock { all in
            let kept = (all[feed] ?? []).filter { now.timeIntervalSince($0) < window }
            if kept.count >= limit, let oldest = kept.first {
                all[feed] = kept
                return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
            }
            // Feeds whose previews are all older than the window are forgotten, so memory follows the recent ones.
            if all.count > 1000 { all = all.filter { $0.value.contains { now.timeIntervalSince($0) < window } } }
            all[feed] = kept + [now]
            return nil
        }
    }
}
