import Catalog
import Countdowns
import Foundation
import HTTPSupport
import Hummingbird
import ICalendar

/// The agenda in the admin API: the days ahead of every feed the token's
/// principal may read (a person's token: their own and their spaces'
/// feeds), what a phone's widget or a reminder shows. The same read as the
/// app's timeline (`FeedCatalog.agenda`).
extension AdminRoutes {
    struct AgendaJSON: Encodable {
        struct Entry: Encodable {
            /// event, task (its due date) or alarm.
            var kind: String
            /// `HH:MM` in `zone`; absent for an all-day entry.
            var time: String?
            /// The instant, in UTC.
            var at: String
            var title: String
            var feed: String
            var feedName: String
            var color: String
            var countdownId: Int64?
            var cancelled: Bool
            var done: Bool
        }

        struct Day: Encodable {
            var date: String
            var today: Bool
            var entries: [Entry]
        }

        var zone: String
        var from: String
        var days: [Day]
        /// A repeat had more occurrences than one agenda lists.
        var truncated: Bool
        /// Readable feeds a large server left out (at most 64 are compiled for one agenda).
        var feedsLeftOut: Int
    }

    /// Most days one agenda spans: a quarter, as the app's timeline at its longest.
    static let maxAgendaDays = 92

    func registerAgenda(on api: RouterGroup<ServerContext>) {
        api.get("agenda") { request, _ in try await self.agenda(request) }
    }

    func agenda(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        var days = 7
        if let raw = query.get("days") {
            guard let parsed = Int(raw), (1...Self.maxAgendaDays).contains(parsed) else {
                throw HTTPError(.badRequest, message: "days: '\(raw.prefix(20))' is not a whole number from 1 to \(Self.maxAgendaDays)")
            }
            days = parsed
        }
        let slug: String? = query.get("feed").map { String($0) }
        if let slug, !Feed.isValidSlug(slug) { throw HTTPError(.badRequest, message: "feed: '\(slug.prefix(64))' is not a feed's slug") }
        let zone = try query.get("tz").map { try ViewerZone.fromQuery($0, default: .utc) }
        let read = try await catalog.agenda(for: service, feed: slug, dayCount: days, zone: zone, now: clock())
        return try AdminJSON.encode(AgendaJSON(zone: read.zone.identifier, from: read.from.iso, days: read.agenda.days.map { day in
            AgendaJSON.Day(date: day.date.iso, today: day.isToday, entries: day.entries.map { entry in
                AgendaJSON.Entry(kind: entry.kind.rawValue, time: entry.time, at: UTCStamp.iso(entry.instant), title: entry.title, feed: entry.feed,
                                 feedName: entry.feedName, color: entry.color, countdownId: entry.countdownID, cancelled: entry.cancelled, done: entry.done)
            })
        }, truncated: read.agenda.truncated, feedsLeftOut: read.left))
    }
}
