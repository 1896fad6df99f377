import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// What an import read from a calendar, before anything is written: the
/// countdowns (one per UID, the first wins), the canonical text each is compared
/// and stored by, the calendar's category colours, the feed to create when there
/// is none, and what was skipped. Reading is the same for every store; the
/// writing is `CountdownService.importCalendar`'s.
public struct ImportBatch: Sendable {
    public var countdowns: [Countdown]
    /// `CountdownArchive.text(of:)` of each countdown, in the same order.
    public var contents: [String]
    /// Each countdown's place in its feed's list (`PlaceBound`), in the same
    /// order: made here, not in the transaction that writes them. A place is
    /// true from the instant it was made on (`placedAt`).
    public var places: [PlaceBound]
    public var placedAt: Date
    public var categoryColors: [String: String]
    /// The feed an import creates when the slug is new: the calendar's name and zone.
    public var feedTemplate: Feed
    /// Skipped components and parser diagnostics (the counts are filled by `apply`).
    public var report: ImportReport

    /// Parses decoded text and reads its countdowns. The component tree dies
    /// with this call, so the largest thing an import holds is let go before
    /// the write starts; the canonical texts are made on every core.
    public static func read(_ decoded: consuming ICalendarParser.Decoded, slug: String, options: ImportOptions,
                            limits: StoreLimits, placedAt now: Date) throws -> ImportBatch {
        guard Feed.isValidSlug(slug) else { throw StoreError.invalidSlug(slug) }
        let parsed: ParseResult
        // The parser counts every component (alarms and zones too); events and
        // tasks are held to `maxComponents` below, where the message names them.
        do {
            parsed = try ICalendarParser.parse(decoded, options: ParseOptions(mode: options.strict ? .strict : .lenient,
                                                                             maxComponents: limits.maxComponents * 4 + 1000))
        } catch {
            throw StoreError.unusableCalendar(error)
        }
        let calendar = parsed.calendar
        let total = calendar.events.count + calendar.todos.count
        guard total <= limits.maxComponents else { throw StoreError.tooManyComponents(count: total, limit: limits.maxComponents) }
        try WorkerPool.checkCancellation()
        var (countdowns, skipped) = CountdownReader.countdowns(in: calendar, source: options.source)
        if let rules = options.rules {
            // A shutdown stops an import between two events, not after all of them.
            countdowns = try countdowns.compactMap { countdown in
                try WorkerPool.checkCancellation()
                return try rules(countdown)
            }
        }
        if options.strict, let first = skipped.first { throw StoreError.invalid(first.description) }
        var seen = Set<String>()
        countdowns = countdowns.filter { seen.insert($0.uid).inserted }
        var report = ImportReport()
        report.skipped = skipped.map(\.description)
        report.diagnostics = parsed.diagnostics.map(\.description)
        let feed = Feed(slug: slug, name: calendar.name ?? slug,
                        timeZone: calendar.defaultTimeZone.flatMap { Zone.named($0)?.identifier } ?? options.defaultTimeZone)
        // The canonical texts and the places, on every core in one pass (a place expands a repeat's next
        // occurrences: serial, it doubled the time of an import of 10,000 events).
        let written = countdowns.concurrentMap { (text: CountdownArchive.text(of: $0), place: PlaceBound($0, at: now)) }
        return ImportBatch(countdowns: countdowns, contents: written.map(\.text), places: written.map(\.place), placedAt: now,
                           categoryColors: CalendarExport.categoryColors(in: calendar), feedTemplate: feed, report: report)
    }
}
