import Countdowns
import CountdownStore
import Foundation
import ICalendar
import NIOCore

/// One feed, compiled once per change and then only read: its settings, its
/// countdowns with their recurrence prepared, and the bytes of the outputs that
/// do not depend on the clock. Requests read it from memory, so a cached GET
/// runs no SQL and no libical. A class: every request takes one from the
/// catalog, and a reference is one retain where a struct copy was eight.
///
/// A feed has one compilation per kind of link that reads it (`Redaction`):
/// the full one, and, where some link needs it, one of redacted countdowns
/// (`redacted(_:previous:now:settings:)`). Each renders only what it holds.
package final class CompiledFeed: Sendable {
    /// What a representation rendered from a compilation is keyed by: two
    /// compilations of one revision that show different things differ here.
    package struct Identity: Hashable, Sendable {
        package var slug: String
        package var revision: Int64
        package var redaction: Redaction
        /// The revision of the holidays feed its working days were counted with.
        package var holidaysRevision: Int64?
    }

    package let stored: StoredFeed
    /// What of the feed this compilation holds.
    package let redaction: Redaction
    /// In the store's order (first date, then title).
    package let series: [CountdownSeries]
    package let indexByID: [Int64: Int]
    /// Lower-cased category names, to tell `?category=` values the feed has from the rest.
    package let categories: Set<String>
    /// The exported calendar (the countdowns' own events), rendered at compile time.
    package let exported: Representation
    /// When the clock passes this, some series must be prepared again.
    package let validUntil: Date
    /// The RDATE window `exported` spells repeats in other calendars out for.
    package let otherCalendarDates: OtherCalendarDates
    /// The feed's weekend and, once the catalog has linked them, its holidays.
    package let workingDays: WorkingDays
    /// The revision of the `holidays:` feed `workingDays` came from; nil before linking or without one.
    package let holidaysRevision: Int64?
    /// Roughly what this compilation holds, for the compiled feeds' budget (`--compiled-mb`).
    package let approximateBytes: Int

    package init(stored: StoredFeed, redaction: Redaction, series: [CountdownSeries], indexByID: [Int64: Int], categories: Set<String>,
         exported: Representation, validUntil: Date, workingDays: WorkingDays, holidaysRevision: Int64?,
         otherCalendarDates: OtherCalendarDates) {
        self.otherCalendarDates = otherCalendarDates
        self.workingDays = workingDays
        self.holidaysRevision = holidaysRevision
        self.stored = stored
        self.redaction = redaction
        self.series = series
        self.indexByID = indexByID
        self.categories = categories
        self.exported = exported
        self.validUntil = validUntil
        approximateBytes = 1_024 + exported.cachedSize + series.reduce(0) { $0 + $1.approximateBytes } + indexByID.count * 24
    }

    package var feed: Feed { stored.feed }
    package var slug: String { stored.feed.slug }
    package var revision: Int64 { stored.revision }
    package var identity: Identity { Identity(slug: slug, revision: revision, redaction: redaction, holidaysRevision: holidaysRevision) }
    package var countdowns: [Countdown] { series.map(\.countdown) }

    package func series(id: Int64) -> CountdownSeries? { indexByID[id].map { series[$0] } }

    /// Compiles `countdowns` for `stored`. Series and bytes of `previous` are
    /// reused where nothing they depend on changed, so editing one countdown of
    /// 10,000 prepares one series, not 10,000.
    /// `exportOrder`: the order the export writes `countdowns` in, when not
    /// their own (`CalendarExport.bytes(…order:…)`).
    package static func compile(_ stored: StoredFeed, countdowns: [Countdown], previous: CompiledFeed?, now: Date,
                        settings: RenderSettings, redaction: Redaction = .none, workingDays: WorkingDays? = nil,
                        holidaysRevision: Int64? = nil, exportOrder: [Int]? = nil) -> CompiledFeed {
        let zone = stored.feed.zone
        let reusable: [Int64: CountdownSeries] = {
            var reusable: [Int64: CountdownSeries] = [:]
            if let previous, previous.feed.timeZone == stored.feed.timeZone {
                for old in previous.series where old.validUntil > now {
                    if let id = old.countdown.id { reusable[id] = old }
                }
            }
            return reusable
        }()
        // Prepared on every core: expanding repeats is most of a compile (a
        // 100,000-countdown feed took 23 s on one thread).
        let maxOccurrences = settings.maxOccurrences
        let series = countdowns.concurrentMap(minimumChunk: 256) { countdown in
            if let id = countdown.id, let old = reusable[id], old.countdown == countdown { return old }
            return CountdownSeries(countdown, preparedAt: now, floatingZone: zone, maxOccurrences: maxOccurrences)
        }
        var indexByID: [Int64: Int] = [:]
        indexByID.reserveCapacity(series.count)
        var categories = Set<String>()
        for (index, countdown) in countdowns.enumerated() {
            if let id = countdown.id { indexByID[id] = index }
            for category in countdown.categories { categories.insert(category.lowercased()) }
        }
        let exported: Representation
        // Repeats in another calendar (RSCALE) are spelled out as RDATEs from this year on, for clients that ignore RSCALE.
        let spelling = OtherCalendarDates(today: zone.local(of: now).date)
        // One sent from the store is reused only for its own revision: its reads are bound to the row kept for it.
        if let previous, previous.exported.streamed == nil || previous.revision == stored.revision, previous.feed == stored.feed,
           previous.otherCalendarDates == spelling, previous.stored.updatedAt == stored.updatedAt,
           previous.series.count == series.count, zip(previous.series, series).allSatisfy({ $0.countdown == $1.countdown }) {
            exported = previous.exported
        } else {
            exported = Self.export(stored, countdowns: countdowns, order: exportOrder, settings: settings, otherCalendarDates: spelling)
        }
        let validUntil = series.map(\.validUntil).min() ?? .distantFuture
        return CompiledFeed(stored: stored, redaction: redaction, series: series, indexByID: indexByID, categories: categories, exported: exported,
                            validUntil: validUntil, workingDays: workingDays ?? WorkingDays(weekend: stored.feed.weekend),
                            holidaysRevision: holidaysRevision, otherCalendarDates: spelling)
    }

    /// The exported calendar (`/feeds/{slug}.ics`) of `countdowns`, with repeats in
    /// other calendars spelled out as `otherCalendarDates` says.
    package static func export(_ stored: StoredFeed, countdowns: [Countdown], order: [Int]? = nil, settings: RenderSettings,
                       otherCalendarDates: OtherCalendarDates) -> Representation {
        export(stored, bytes: CalendarExport.bytes(feed: stored.feed, countdowns: countdowns, order: order, imageURL: { settings.imageURL($0) },
                                                   otherCalendarDates: otherCalendarDates), settings: settings)
    }

    /// The exported calendar of these bytes (written elsewhere, `BatchedExport`), with the headers and validators `export` gives.
    package static func export(_ stored: StoredFeed, bytes: [UInt8], settings: RenderSettings) -> Representation {
        Representation(bytes: bytes, contentType: Representation.calendarType, lastModified: stored.updatedAt,
                       cacheControl: settings.cacheControl(stored.feed, maxAge: RenderSettings.feedMaxAge), contentDisposition: exportDisposition(stored), gzip: settings.gzip,
                       feed: stored.feed.slug)
    }

    /// The exported calendar from the bytes a store kept for this revision,
    /// with the headers `export` gives: served as if compiled.
    package static func export(_ stored: StoredFeed, kept: KeptExport.Bytes, settings: RenderSettings) -> Representation {
        let gzipped = kept.gzipped.flatMap { body in kept.gzippedEtag.map { (body: body, etag: $0) } }
        return Representation(body: kept.body, etag: kept.etag, gzipped: gzipped, contentType: Representation.calendarType,
                              lastModified: stored.updatedAt, cacheControl: settings.cacheControl(stored.feed, maxAge: RenderSettings.feedMaxAge),
                              contentDisposition: exportDisposition(stored), feed: stored.feed.slug)
    }

    /// This compilation with its exported calendar sent from the store's copy
    /// (`streamed`) instead of held: for one larger than its share of
    /// `--compiled-mb`. The same validators and headers.
    package func sendingExport(_ streamed: StreamedBody) -> CompiledFeed {
        let sent = Representation(streamed: streamed, etag: exported.etag, contentType: exported.contentType, lastModified: exported.lastModified,
                                  cacheControl: exported.cacheControl, contentDisposition: exported.contentDisposition,
                                  feed: stored.feed.slug)
        return CompiledFeed(stored: stored, redaction: redaction, series: series, indexByID: indexByID, categories: categories, exported: sent,
                            validUntil: validUntil, workingDays: workingDays, holidaysRevision: holidaysRevision, otherCalendarDates: otherCalendarDates)
    }

    /// The exported calendar sent from the store's copy, a chunk at a time, with the headers `export` gives.
    package static func export(_ stored: StoredFeed, streamed: StreamedBody, etag: String, settings: RenderSettings) -> Representation {
        Representation(streamed: streamed, etag: etag, contentType: Representation.calendarType, lastModified: stored.updatedAt,
                       cacheControl: settings.cacheControl(stored.feed, maxAge: RenderSettings.feedMaxAge), contentDisposition: exportDisposition(stored),
                       feed: stored.feed.slug)
    }

    private static func exportDisposition(_ stored: StoredFeed) -> String { "inline; filename=\"\(stored.feed.slug).ics\"" }

    /// This (full) compilation as `redaction` shows it: itself when that hides
    /// nothing here, else a compilation of the redacted countdowns, reusing
    /// `previous` (the last one for the same redaction) where nothing changed.
    package func redacted(_ redaction: Redaction, previous: CompiledFeed?, now: Date, settings: RenderSettings) -> CompiledFeed {
        precondition(self.redaction == .none, "redact the full compilation")
        let countdowns = self.countdowns
        if redaction.leavesUnchanged(countdowns) { return self }
        var shown = stored
        shown.feed = redaction.apply(to: stored.feed)
        // Written in the order of the UIDs the countdowns had: a redacted UID is a hash, and a store reads rows by the real one (`BatchedExport`).
        return Self.compile(shown, countdowns: countdowns.map(redaction.apply(to:)), previous: previous?.redaction == redaction ? previous : nil,
                            now: now, settings: settings, redaction: redaction, workingDays: workingDays, holidaysRevision: holidaysRevision,
                            exportOrder: CalendarExport.order(of: countdowns))
    }

    /// This compilation counting working days with `holidays` (the compiled
    /// feed its `holidays:` names, nil when that feed does not exist): the
    /// same series and bytes, so linking costs no expansion of this feed.
    package func linking(holidays: CompiledFeed?, now: Date) -> CompiledFeed {
        let workingDays = WorkingDays(weekend: feed.weekend, holidays: holidays?.series ?? [], today: feed.zone.local(of: now).date,
                                      zone: holidays?.feed.zone ?? feed.zone)
        return CompiledFeed(stored: stored, redaction: redaction, series: series, indexByID: indexByID, categories: categories, exported: exported,
                            // Read again when the holidays' series expire, and monthly, as the holiday window moves on.
                            validUntil: holidays.map { min(validUntil, $0.validUntil, now.addingTimeInterval(30 * 86_400)) } ?? validUntil,
                            workingDays: workingDays,
                            holidaysRevision: holidays?.revision, otherCalendarDates: otherCalendarDates)
    }
}
