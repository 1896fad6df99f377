import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// `/app/feeds/{slug}`: the feed's countdowns, its subscribe links with QR
/// codes, its tokens, and its tasks' counts.
struct FeedView: TemplateView {
    struct Link {
        var label: String
        var url: String
    }

    struct TokenRow {
        var id: Int64
        var label: String
        var visibility: String
        var created: String
        var lastUsed: String
        var revoked: Bool
    }

    /// Where the feed's countdowns come from, and how the last fetch went.
    struct SourceRow {
        var location: String
        var isURL: Bool
        var subscribed: Bool
        var lastSuccess: String
        var lastError: String?
    }

    /// A token just made: shown on this page once, never again.
    struct NewToken {
        var label: String
        var https: String
        var webcal: String
        var page: String
        var qr: String?
    }

    var slug: String
    var name: String
    var description: String?
    var timeZone: String
    var isPublic: Bool
    var color: String
    var links: [Link]
    var webcal: String?
    var google: String?
    var qr: String?
    var countdowns: [CountdownRow]
    var tokens: [TokenRow]
    var sources: [SourceRow]
    var hasURLSources: Bool
    var newToken: NewToken?
    var tasks: TaskCounts
    /// Client limits this feed's calendars pass (Google's 1 MB).
    var budgetWarnings: [String]
    var templateValues: [String: Any] { ["isEmpty": countdowns.isEmpty, "hasTokens": !tokens.isEmpty, "hasTasks": tasks.open > 0, "hasSources": !sources.isEmpty] }
}

extension FeedView.TokenRow {
    init(_ token: FeedToken) {
        id = token.id
        label = token.label
        visibility = token.visibility.rawValue
        created = AppDates.text(token.createdAt)
        lastUsed = token.lastUsedAt.map(AppDates.text) ?? "never"
        revoked = token.revokedAt != nil
    }
}

/// How the app writes instants: `2026-11-23 14:05 UTC`, unambiguous in any locale.
enum AppDates {
    static func text(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let day = Int((Double(seconds) / 86_400).rounded(.down))
        let civil = CivilDate(daysSinceEpoch: day).iso
        let rest = seconds - day * 86_400
        return civil + String(format: " %02d:%02d UTC", rest / 3600, rest % 3600 / 60)
    }
}
