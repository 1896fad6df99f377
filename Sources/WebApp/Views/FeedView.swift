import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Notices
import Pages
import Subscriptions

/// `/app/feeds/{slug}`: the feed's countdowns, its subscribe links with QR
/// codes, its tokens, and its tasks' counts.
package struct FeedView: TemplateView {
    package struct Link {
        package var label: String
        package var url: String
    }

    package struct TokenRow {
        package var id: Int64
        package var label: String
        package var visibility: String
        package var created: String
        package var lastUsed: String
        package var revoked: Bool
    }

    /// Where the feed's countdowns come from, and how the last fetch went.
    package struct SourceRow {
        package var location: String
        package var isURL: Bool
        package var subscribed: Bool
        package var lastSuccess: String
        package var lastError: String?
        /// Where its rules are edited (a source added here, not one of the feed file).
        package var rulesLink: String?
        package var hasRules: Bool
    }

    /// Where the feed's notices go (`notify:`), and how the last deliveries went.
    package struct NoticeRow {
        package struct Attempt {
            package var at: String
            package var event: String
            package var outcome: String
            package var detail: String
        }

        package var target: String
        package var events: String
        package var summary: String
        package var lastError: String?
        package var attempts: [Attempt]
        /// Stored, not computed: the templates read a value's stored properties.
        package var hasAttempts: Bool

        package init(target: String, events: String, summary: String, lastError: String?, attempts: [Attempt]) {
            self.target = target
            self.events = events
            self.summary = summary
            self.lastError = lastError
            self.attempts = attempts
            hasAttempts = !attempts.isEmpty
        }
    }

    /// A token just made: shown on this page once, never again.
    package struct NewToken {
        package var label: String
        package var https: String
        package var webcal: String
        package var page: String
        package var qr: String?
    }

    package var slug: String
    package var name: String
    package var description: String?
    package var timeZone: String
    package var isPublic: Bool
    package var color: String
    package var links: [Link]
    package var webcal: String?
    package var google: String?
    package var qr: String?
    package var countdowns: [CountdownRow]
    package var tokens: [TokenRow]
    package var sources: [SourceRow]
    package var notices: [NoticeRow] = []
    package var hasURLSources: Bool
    package var newToken: NewToken?
    package var tasks: TaskCounts
    /// Tasks a calendar app keeps here without a date (no countdown yet), by title.
    package var undated: [UndatedTask] = []
    /// Client limits this feed's calendars pass (Google's 1 MB).
    package var budgetWarnings: [String]
    /// The feed's slug when its file was removed from `feeds/` (served as it was until `tminus feeds rm`), else empty.
    package var fileRemoved: [String] = []
    /// What the signed-in person may do here: the page shows only those controls
    /// (a forged POST is refused by the use case all the same).
    package var canEdit = true
    package var canManageSources = true
    package var canDelete = true
    package var templateValues: [String: Any] { ["isEmpty": countdowns.isEmpty, "hasTokens": !tokens.isEmpty, "hasTasks": tasks.open > 0, "hasSources": !sources.isEmpty,
                                      "hasNotices": !notices.isEmpty,
                                      "hasUndated": !undated.isEmpty] }

    /// A task without a date: its title and when it was last written.
    package struct UndatedTask {
        package var title: String
        package var saved: String
    }
}

extension FeedView.TokenRow {
    package init(_ token: FeedToken, _ words: WebWords) {
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
    package static func rows(feed slug: String, notices: NoticeWatcher?, targets: [NoticeTarget], words: WebWords) -> [FeedView.NoticeRow] {
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
