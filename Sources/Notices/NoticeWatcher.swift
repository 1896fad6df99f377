import Countdowns
import Foundation
import ICalendar
import Logging
import Services
import Subscriptions
import Synchronization

/// Decides what to tell each feed's notice targets, once per tick
/// (`NoticeService`), from what the server already holds in memory:
///
/// - **changes**: the watched feed's revision moved; the countdowns added,
///   changed (a new SEQUENCE or title) and removed since the last tick;
/// - **milestones**: the feed's day began (midnight in its zone); the
///   countdowns whose days left are one of the target's milestone days;
/// - **MQTT**: after either, or a reconnect, the broker is brought in step.
///
/// Each notice is claimed in the store first (`claimNotice`), so replicas and
/// restarts send it once. The first tick after a start takes the feed as it is
/// (changes while the server was down are not reported) and sends the day's
/// milestones unless they were already sent.
package final class NoticeWatcher: Sendable {
    private struct FeedState: Sendable {
        var revision: Int64
        var items: [String: WatchedFeed.Entry]
        var day: CivilDate
    }

    package let loader: FeedLoader
    package let feeds: any NoticeFeeds
    package let service: CountdownService
    package let outbox: NoticeOutbox
    package let version: String
    package let clock: @Sendable () -> Date
    package let logger: Logger
    private let states = Mutex<[String: FeedState]>([:])
    private let publishers = Mutex<[MQTTSettings: MQTTPublisher]>([:])
    /// Which feeds each broker keeps sensors for, to forget a feed whose notify: went away.
    private let brokerFeeds = Mutex<[MQTTSettings: Set<String>]>([:])

    package init(loader: FeedLoader, feeds: any NoticeFeeds, service: CountdownService, outbox: NoticeOutbox, version: String,
         clock: @escaping @Sendable () -> Date, logger: Logger) {
        self.loader = loader
        self.feeds = feeds
        self.service = service
        self.outbox = outbox
        self.version = version
        self.clock = clock
        self.logger = logger
    }

    package var mqttStatuses: [MQTTPublisher.Status] { publishers.withLock { $0 }.values.map(\.status).sorted { $0.target < $1.target } }

    /// True when a webhook or ntfy lane's last attempt failed, or a broker refused or lost the connection
    /// (one still connecting for the first time is not failing yet).
    package var anyFailing: Bool { outbox.anyFailing || mqttStatuses.contains { !$0.connected && $0.lastError != nil } }

    package func stop() {
        outbox.stop()
        for publisher in publishers.withLock({ $0 }).values { publisher.stop() }
    }

    /// Returns once what the ticks so far asked for is out: every webhook and
    /// ntfy lane delivered or gave up, and every broker acknowledged its messages.
    package func settled() async {
        await outbox.idle()
        for publisher in publishers.withLock({ Array($0.values) }) { await publisher.settled() }
    }

    package func tick() async {
        let now = clock()
        var kept: [MQTTSettings: Set<String>] = [:]
        for (slug, targets) in loader.noticeTargets {
            guard let watched = await feeds.watched(slug: slug) else { continue }
            let feed = watched.feed
            let today = feed.zone.local(of: now).date
            let previous = states.withLock { $0[slug] }
            let revisionMoved = previous.map { $0.revision != watched.revision } ?? false
            let dayBegan = previous?.day != today
            guard previous == nil || revisionMoved || dayBegan || !targets.allSatisfy({ target in
                if case .mqtt(let broker) = target.kind { return brokerFeeds.withLock { $0[broker]?.contains(slug) ?? false } }
                return true
            }) else {
                // Nothing moved: the usual tick costs a lookup, not a pass over the countdowns.
                for target in targets { if case .mqtt(let broker) = target.kind { kept[broker, default: []].insert(slug) } }
                continue
            }
            let items = revisionMoved || previous == nil
                ? Dictionary(watched.entries().map { ($0.item.uid, $0) }) { first, _ in first }
                : previous?.items ?? [:]
            states.withLock { $0[slug] = FeedState(revision: watched.revision, items: items, day: today) }
            let messaging = targets.filter { if case .mqtt = $0.kind { false } else { true } }

            if let previous, revisionMoved {
                let added = items.filter { previous.items[$0.key] == nil }.map(\.value.item)
                let changed = items.filter { uid, now in previous.items[uid].map { $0 != now } ?? false }.map(\.value.item)
                let removed = previous.items.filter { items[$0.key] == nil }.map(\.value.item)
                let listening = messaging.filter { $0.events.contains(.changes) }
                if !(added.isEmpty && changed.isEmpty && removed.isEmpty), !listening.isEmpty,
                   await claim("changes:\(slug)", String(watched.revision), newer: { (Int64($0) ?? 0) > (Int64($1) ?? 0) }) {
                    let byTitle = { (a: Notice.Item, b: Notice.Item) in (a.title, a.uid) < (b.title, b.uid) }
                    let notice = Notice.changes(feed: feed, revision: watched.revision, added: added.sorted(by: byTitle),
                                                changed: changed.sorted(by: byTitle), removed: removed.sorted(by: byTitle))
                    for target in listening { outbox.post(notice, feed: slug, to: target) }
                }
            }

            var snapshots: [CountdownSnapshot]?
            let counting = messaging.filter { $0.events.contains(.milestones) }
            if dayBegan, !counting.isEmpty, await claim("milestones:\(slug)", today.iso, newer: { $0 > $1 }) {
                let all = watched.snapshots(now)
                snapshots = all
                let ahead = all.filter { $0.state == "upcoming" || $0.state == "today" }.sorted { ($0.days, $0.title) < ($1.days, $1.title) }
                for target in counting {
                    for snapshot in ahead where target.milestones.contains(snapshot.days) {
                        outbox.post(Notice.milestone(feed: feed, countdown: snapshot, day: today.iso), feed: slug, to: target)
                    }
                }
            }

            for target in targets {
                guard case .mqtt(let settings) = target.kind, let publisher = publisher(for: target, settings) else { continue }
                kept[settings, default: []].insert(slug)
                let known = brokerFeeds.withLock { $0[settings]?.contains(slug) ?? false }
                if revisionMoved || dayBegan || !known {
                    publisher.sync(feed: feed, snapshots: snapshots ?? watched.snapshots(now))
                }
            }
        }
        // A feed whose mqtt: entry went away (a reload) loses its sensors; a broker no feed names is closed.
        let (forget, close) = brokerFeeds.withLock { known -> ([(MQTTSettings, String)], [MQTTSettings]) in
            let forget = known.flatMap { broker, slugs in slugs.subtracting(kept[broker] ?? []).map { (broker, $0) } }
            let close = known.keys.filter { kept[$0] == nil }
            known = kept
            return (forget, close)
        }
        for (broker, slug) in forget { publishers.withLock { $0[broker] }?.forget(feed: slug) }
        for broker in close { publishers.withLock { $0.removeValue(forKey: broker) }?.stop() }
    }

    private func publisher(for target: NoticeTarget, _ settings: MQTTSettings) -> MQTTPublisher? {
        if let publisher = publishers.withLock({ $0[settings] }) { return publisher }
        do {
            // Two brokers' entries that differ only in their login or topic share a label: a number tells them apart.
            let label = publishers.withLock { publishers in
                let same = publishers.values.filter { $0.label == target.label || $0.label.hasPrefix(target.label + " #") }.count
                return same == 0 ? target.label : "\(target.label) #\(same + 1)"
            }
            let publisher = try MQTTPublisher(label: label, settings: settings, version: version, logger: logger)
            publishers.withLock { $0[settings] = publisher }
            return publisher
        } catch {
            logger.error("cannot start the MQTT client", metadata: ["target": "\(target.label)", "error": "\(error)"])
            return nil
        }
    }

    private func claim(_ subject: String, _ mark: String, newer: @escaping @Sendable (String, String) -> Bool) async -> Bool {
        do { return try await service.claimNotice(subject: subject, mark: mark, newer: newer) } catch {
            logger.warning("cannot claim a notice; it is not sent", metadata: ["subject": "\(subject)", "error": "\(error)"])
            return false
        }
    }
}
