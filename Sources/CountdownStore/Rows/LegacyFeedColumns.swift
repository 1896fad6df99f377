import Countdowns
import Foundation
import ICalendar

/// A feed row's settings as schema v11 kept them, a column each: read once,
/// by the v12 migration of either store, and written back as one
/// `FeedSettingsColumn`. Nothing else reads these columns.
public struct LegacyFeedColumns: Codable, Sendable {
    public var id: Int64
    public var slug: String
    public var name: String
    public var description: String?
    public var timeZone: String
    public var color: String?
    public var isPublic: Bool
    /// `daily:60` or `milestones:100,50,30`.
    public var countdownMode: String
    public var includeAlarms: Bool
    public var refreshInterval: String
    public var countdownMaxEvents: Int?
    /// JSON of `Celebrations`; nil for the default set.
    public var celebrations: String?
    public var purgeURL: String?
    /// The weekend's bits (Sunday = 1, Saturday = 64); nil for Saturday and Sunday.
    public var weekend: Int?
    public var holidays: String?
    public var language: String?
    public var sort: String?

    /// The columns, as `RowCoding` reads them on PostgreSQL.
    public static let table = StoreTable(name: "feed", columns: [
        ("id", .integer), ("slug", .text), ("name", .text), ("description", .text), ("timeZone", .text), ("color", .text),
        ("isPublic", .boolean), ("countdownMode", .text), ("includeAlarms", .boolean), ("refreshInterval", .text),
        ("countdownMaxEvents", .integer), ("celebrations", .text), ("purgeURL", .text), ("weekend", .integer), ("holidays", .text),
        ("language", .text), ("sort", .text),
    ], key: "id")

    /// The columns the v12 migration drops.
    public static var dropped: [String] { table.columns.map(\.name).filter { $0 != "id" && $0 != "slug" } }

    /// The same settings as one document. Reading is lenient, as v11's was:
    /// a damaged value reads as its default.
    public var settings: FeedSettingsColumn {
        let feed = Feed(slug: slug, name: name, description: description, timeZone: timeZone, color: color, isPublic: isPublic,
                        countdownMode: Self.mode(countdownMode), includeAlarms: includeAlarms,
                        refreshInterval: ICalDuration(parsing: refreshInterval) ?? ICalDuration(seconds: 6 * 3600),
                        countdownMaxEvents: countdownMaxEvents ?? 2_000,
                        celebrations: celebrations.flatMap { try? JSONDecoder().decode(Celebrations.self, from: Data($0.utf8)) } ?? .default,
                        purgeURL: purgeURL, weekend: weekend.map(Weekend.init(rawValue:)) ?? .standard, holidays: holidays,
                        language: language.flatMap(Language.named), sort: sort.flatMap(FeedSnapshot.Sort.init(rawValue:)) ?? .remaining)
        return FeedSettingsColumn(feed)
    }

    /// `daily:60` or `milestones:100,50,30`; anything else, the default.
    static func mode(_ text: String) -> Feed.CountdownMode {
        let parts = text.split(separator: ":", maxSplits: 1)
        if parts.first == "milestones" {
            let days = parts.count > 1 ? parts[1].split(separator: ",").compactMap { Int($0) } : []
            return .milestones(days.isEmpty ? Feed.CountdownMode.defaultMilestones : days)
        }
        return .daily(days: parts.count > 1 ? Int(parts[1]) ?? 60 : 60)
    }
}
