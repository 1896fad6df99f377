import Countdowns
import CountdownStore
import Foundation
import Subscriptions

/// One thing to tell a target, as JSON (the webhook's body) and as a short
/// text (ntfy's message). Its `id` is the same on every replica and every
/// retry, so a receiver can drop a second copy.
package struct Notice: Sendable, Equatable {
    package var event: NoticeTarget.Event
    /// The same for the same notice everywhere: SHA-256 of what it is about.
    package var id: String
    package var title: String
    package var message: String
    package var body: [UInt8]

    /// A countdown of the feed, as notices name it.
    package struct Item: Codable, Sendable, Equatable {
        package var id: Int64?
        package var uid: String
        package var title: String

        package init(id: Int64? = nil, uid: String, title: String) {
            self.id = id
            self.uid = uid
            self.title = title
        }
    }

    package struct MilestoneBody: Encodable {
        package var type = "milestone"
        package var id: String
        package var feed: String
        package var feedName: String
        /// The day it was sent for, in the feed's zone.
        package var day: String
        package var daysLeft: Int
        package var message: String
        package var countdown: CountdownSnapshot
    }

    package struct ChangesBody: Encodable {
        package var type = "changes"
        package var id: String
        package var feed: String
        package var feedName: String
        package var revision: Int64
        package var message: String
        package var added: [Item]
        package var changed: [Item]
        package var removed: [Item]
    }

    package static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// "Maths final: 3 days" (the feed's words, in its language), for the day `day`.
    package static func milestone(feed: Feed, countdown: CountdownSnapshot, day: String) -> Notice {
        let id = SHA256Hex.of("milestone|\(feed.slug)|\(countdown.uid)|\(day)|\(countdown.days)")
        let message = "\(countdown.title): \(countdown.text)"
        let body = MilestoneBody(id: id, feed: feed.slug, feedName: feed.name, day: day, daysLeft: countdown.days, message: message, countdown: countdown)
        return Notice(event: .milestones, id: id, title: countdown.title, message: message, body: Array((try? encoder.encode(body)) ?? Data()))
    }

    /// "Exams: 1 added, 2 changed" for a change of the feed to `revision`.
    package static func changes(feed: Feed, revision: Int64, added: [Item], changed: [Item], removed: [Item]) -> Notice {
        let id = SHA256Hex.of("changes|\(feed.slug)|\(revision)")
        let parts = [(added.count, "added"), (changed.count, "changed"), (removed.count, "removed")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        let message = "\(feed.name): " + parts.joined(separator: ", ")
        let body = ChangesBody(id: id, feed: feed.slug, feedName: feed.name, revision: revision, message: message, added: added, changed: changed,
                               removed: removed)
        return Notice(event: .changes, id: id, title: feed.name, message: message, body: Array((try? encoder.encode(body)) ?? Data()))
    }
}
