import Countdowns
import CountdownStore
import Foundation

extension CountdownService {
    /// Adds focus blocks kept elsewhere (another timer app's export, a
    /// calendar of study blocks) to the person's focus history: the timed
    /// events of `url`, only those in `category` when one is named, each
    /// tagged `tag` (else with its own first category). Re-importing updates
    /// by UID, as every import does.
    public func importFocusBlocks(contentsOf url: URL, category: String?, tag: String?,
                                  progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> ImportReport {
        let me = try focusPerson(writing: true)
        let tag = try tag.map(FocusTag.checked)
        let slug = try await transaction { tx in try await self.focusFeed(of: me, zone: nil, tx) }
        var options = ImportOptions(source: url.path, createFeed: false)
        options.rules = { countdown in
            guard countdown.kind == .event, !countdown.isAllDay, countdown.end != nil || countdown.duration != nil else { return nil }
            if let category, !countdown.categories.contains(where: { $0.caseInsensitiveCompare(category) == .orderedSame }) { return nil }
            var block = countdown
            if let tag { block.categories = [tag] }
            return block.categories.isEmpty ? nil : block
        }
        return try await importCalendar(contentsOf: url, intoFeed: slug, options: options, progress: progress)
    }
}
