import Catalog
import Countdowns
import CountdownStore
import Foundation

/// A calendar's countdowns as the feed's compilation prepared them, for the
/// revision a listing was read at: a time range is answered from their kept
/// occurrences (else their prepared expansion), and an object's text is
/// written from its parsed countdown, so a query or a multiget parses no
/// stored row (issue #62). Series are read in place: one is several hundred
/// bytes of fields, and copying 10,000 was a tenth of a week's query.
struct SeriesIndex: Sendable {
    let compiled: CompiledFeed

    /// The compilation of `slug` when it is of the listed feed's row and revision (a
    /// calendar deleted and made again at its address is another); nil otherwise (the
    /// rows are then parsed, as they are when nothing is compiled).
    static func of(_ catalog: FeedCatalog, slug: String, listed: StoredFeed) async -> SeriesIndex? {
        guard let compiled = await catalog.feed(slug: slug), compiled.stored.id == listed.id, compiled.revision == listed.revision else { return nil }
        return SeriesIndex(compiled: compiled)
    }

    /// Whether the countdown of row `id` has an occurrence overlapping `window`;
    /// nil when the compilation has no series for it, or has it expanded as if
    /// active (a cancelled countdown, which a search reads as it was written).
    func overlaps(row id: Int64, _ window: DateInterval) -> Bool? {
        guard let index = compiled.indexByID[id], compiled.series[index].countdown.status != .cancelled else { return nil }
        return compiled.series[index].hasOccurrence(overlapping: window)
    }

    /// The countdown of row `id`, parsed once when the feed was compiled.
    func countdown(row id: Int64) -> Countdown? {
        compiled.indexByID[id].map { compiled.series[$0].countdown }
    }
}
