import Foundation

/// Where a feed's notices go (`notify:` in its definition): a signed webhook,
/// an ntfy topic, or an MQTT broker (with Home Assistant discovery). Secrets
/// are named (a file or an environment variable) and read at each delivery,
/// as a source's login is.
package struct NoticeTarget: Sendable, Equatable {
    /// Where notices go, whole: the URL with its query, the secret's name, the
    /// broker's login and topic. Deliveries and broker connections are keyed
    /// by it, so two targets that differ only in a query string stay two.
    package enum Kind: Sendable, Hashable {
        /// POSTs JSON signed with HMAC-SHA256 under `secret`.
        case webhook(url: String, secret: SourceCredentials.Secret)
        /// Publishes to an ntfy topic (`https://ntfy.sh/my-topic`), with an optional access token.
        case ntfy(url: String, token: SourceCredentials.Secret?)
        /// Keeps one retained sensor per countdown on a broker.
        case mqtt(MQTTSettings)
    }

    /// What a target is told about.
    package enum Event: String, Sendable, CaseIterable, Codable {
        /// A countdown reached one of the milestone days ("3 days to Maths final").
        case milestones
        /// The feed's countdowns were added, changed or removed.
        case changes
    }

    package var kind: Kind
    package var events: Set<Event>
    /// Days left that count as milestones; the feed's own (`countdown.milestones`) or 7, 3, 1 and 0.
    package var milestones: Set<Int>
    /// What logs, `/api/health` and the web app call it: the scheme, host and
    /// path, never a secret or a query string; two targets of one feed with
    /// the same label are told apart by a number (`#2`).
    package var label: String

    package static let defaultMilestones: Set<Int> = [7, 3, 1, 0]

    /// `https://hooks.example.org/a/b?key=…` → `webhook https://hooks.example.org/a/b`.
    package static func label(_ kind: String, _ url: URL) -> String {
        var components = URLComponents()
        components.scheme = url.scheme
        components.host = url.host
        components.port = url.port
        components.path = url.path
        return "\(kind) \(components.string ?? url.host ?? "?")"
    }

    /// Numbers the labels that repeat within `targets` (`… #2`, `… #3`), in order.
    package static func numbered(_ targets: [NoticeTarget]) -> [NoticeTarget] {
        var seen: [String: Int] = [:]
        return targets.map { target in
            var target = target
            seen[target.label, default: 0] += 1
            if let count = seen[target.label], count > 1 { target.label += " #\(count)" }
            return target
        }
    }
}

/// An MQTT broker and what tminus keeps on it.
package struct MQTTSettings: Sendable, Hashable {
    package var host: String
    package var port: Int
    package var tls: Bool
    package var username: String?
    package var password: SourceCredentials.Secret?
    /// The topics' root: `{topic}/{feed}/{id}/state`, `…/attributes`, `{topic}/status`.
    package var topic: String
    /// Home Assistant's discovery prefix (`homeassistant`), nil for no discovery.
    package var discoveryPrefix: String?
}
