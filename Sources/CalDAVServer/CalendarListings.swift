import Catalog
import Foundation
import Services
import Synchronization

/// Calendars' listings as last read, by feed, each valid for the revision it
/// was read at (`CalendarVersion`): a phone's week query, a PROPFIND and a multiget of a
/// 10,000-object calendar read one feed row, not 10,000 countdown rows
/// decoded and hashed for their ETags (issue #62). Every write to a
/// calendar's objects, names or change log raises its feed's revision, in
/// whichever process made it, so a listing of the current revision is the
/// calendar's. Kept without the text of objects kept as written (read for
/// the few asked for); within a byte budget, least recently used out.
final class CalendarListings: Sendable {
    /// A listing with its objects by name and by UID.
    struct Kept: Sendable {
        let listing: CalendarListing
        let byName: [String: Int]
        let byUID: [String: Int]

        init(_ listing: CalendarListing) {
            self.listing = listing
            byName = Dictionary(listing.objects.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
            byUID = Dictionary(listing.objects.enumerated().map { ($1.uid, $0) }, uniquingKeysWith: { first, _ in first })
        }

        var version: CalendarVersion {
            var version = CalendarVersion(listing.feed)
            version.isBusyOnly = listing.isBusyOnly
            return version
        }

        /// What a listing holds, roughly: the rows' text and a few hundred bytes each besides.
        var approximateBytes: Int {
            listing.objects.reduce(1_024) { $0 + 320 + ($1.row?.content.utf8.count ?? 0) + ($1.kept?.body?.utf8.count ?? 0) }
        }

        /// The listing of the objects at these names, in the order asked, each once.
        func named(_ names: [String]) -> CalendarListing {
            subset(names.compactMap { byName[$0] })
        }

        /// The listing of the objects with these UIDs.
        func withUIDs(_ uids: [String]) -> CalendarListing {
            subset(uids.compactMap { byUID[$0] })
        }

        private func subset(_ indices: [Int]) -> CalendarListing {
            var seen = Set<Int>()
            var subset = listing
            subset.objects = indices.filter { seen.insert($0).inserted }.map { listing.objects[$0] }
            return subset
        }
    }

    private let kept: Mutex<BudgetedLRU<String, Kept>>

    init(budgetBytes: Int = 64 << 20) {
        kept = Mutex(BudgetedLRU(budgetBytes: budgetBytes))
    }

    /// `slug`'s listing as of `version`, read from the store when what is kept is of another.
    func listing(_ slug: String, version: CalendarVersion, read: () async throws -> CalendarListing) async throws -> Kept {
        // Busy time only is another listing of the same calendar.
        let slug = version.isBusyOnly ? "busy " + slug : slug
        if let hit = kept.withLock({ $0.use(slug) }), hit.version == version { return hit }
        let fresh = Kept(try await read())
        kept.withLock { lru in
            // A slower reader of an older revision of the same calendar never replaces a newer listing.
            if let current = lru.use(slug), current.version.feedId == fresh.version.feedId, current.version.revision > fresh.version.revision { return }
            lru.insert(slug, fresh, size: fresh.approximateBytes)
        }
        return fresh
    }
}
