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
        /// Where its rules are edited (a source added here, not one of the feed file).
        var rulesLink: String?
        var hasRules: Bool
    }

    /// Where the feed's notices go (`notify:`), and how the last deliveries went.
    struct NoticeRow {
        struct Attempt {
            var at: String
            var event: String
            var outcome: String
            var detail: String
        }

        var target: String
        var events: String
        var summary: String
        var lastError: String?
        var attempts: [Attempt]
        /// Stored, not computed: the templates read a value's stored properties.
        var hasAttempts: Bool

        init(target: String, events: String, summary: String, lastError: String?, attempts: [Attempt]) {
            self.target = target
            self.events = events
            self.summary = summary
            self.lastError = lastError
            self.attempts = attempts
            hasAttempts = !attempts.isEmpty
        }
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
    var notices: [NoticeRow] = []
    var hasURLSources: Bool
    var newToken: NewToken?
    var tasks: TaskCounts
    /// Client limits this feed's calendars pass (Google's 1 MB).
    var budgetWarnings: [String]
    var templateValues: [String: Any] { ["isEmpty": countdowns.isEmpty, "hasTokens": !tokens.isEmpty, "hasTasks": tasks.open > 0, "hasSources": !sources.isEmpty,
                                      "hasNotices": !notices.isEmpty] }
}

extension FeedView.TokenRow {
    init(_ token: FeedToken, _ words: WebWords) {
        id = token.id
        label = token.label
        visibility = words["visibility.\(token.visibility.rawValue)"]
        created = AppDates.text(token.createdAt)
        lastUsed = token.lastUsedAt.map(AppDates.text) ?? words["common.never"]
        revoked = token.revokedAt != nil
    }
}

extension FeedView.NoticeRow {
    /// The feed's notice targets as the web app lists them: the webhook and
    /// ntfy lanes with their last attempts, and the MQTT brokers.
    static func rows(feed slug: String, notices: NoticeWatcher?, targets: [NoticeTarget], words: WebWords) -> [FeedView.NoticeRow] {
        guard let notices, !targets.isEmpty else { return [] }
        let lanes = notices.outbox.statuses.filter { $0.feed == slug }
        let brokers = notices.mqttStatuses
        return targets.map { target in
            let events = target.events.map(\.rawValue).sorted().map { words["notice.\($0)"] }.joined(separator: ", ")
            if case .mqtt = target.kind {
                let broker = brokers.first { $0.target == target.label }
                let summary = broker.map { $0.connected ? words["notice.connected", ["topics": String($0.topics)]] : words["notice.notConnected"] }
                    ?? words["notice.notConnectedYet"]
                return .init(target: target.label, events: words["notice.sensors"], summary: summary, lastError: broker?.lastError, attempts: [])
            }
            guard let lane = lanes.first(where: { $0.target == target.label }) else {
                return .init(target: target.label, events: events, summary: words["notice.nothingSent"], lastError: nil, attempts: [])
            }
            var summary = words["notice.delivered", ["count": String(lane.delivered)]]
            if lane.pending > 0 { summary += ", " + words["notice.waiting", ["count": String(lane.pending)]] }
            if lane.dropped > 0 { summary += ", " + words["notice.dropped", ["count": String(lane.dropped)]] }
            let attempts = lane.log.reversed().map { entry in
                Attempt(at: entry.at.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC"), event: words["notice.\(entry.event)"],
                        outcome: words[entry.outcome.wordKey], detail: entry.detail ?? "")
            }
            return .init(target: target.label, events: events, summary: summary, lastError: lane.failing ? lane.lastError : nil, attempts: attempts)
        }
    }
}
