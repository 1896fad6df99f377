import Countdowns
import CountdownStore
import Foundation
import Subscriptions

/// The retained MQTT messages that make each countdown of a feed a Home
/// Assistant sensor, by MQTT discovery
/// (https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery):
///
/// - `{prefix}/sensor/tminus_{feed}/{object}/config`: the sensor (name,
///   unique_id, state and attribute topics, `device_class: duration` in days,
///   availability, and one device per feed);
/// - `{topic}/{feed}/{object}/state`: the days left;
/// - `{topic}/{feed}/{object}/attributes`: title, date, progress, working days….
///
/// `object` comes from the countdown's UID (`c` and 12 hex digits of its
/// SHA-256), so a sensor keeps its entity across a restore or a copy of the
/// database. Without discovery only the state and attributes are kept.
package struct HomeAssistantSensors: Sendable {
    package let settings: MQTTSettings
    package let version: String

    /// Every topic and payload the feed's countdowns should hold now.
    package func messages(feed: Feed, snapshots: [CountdownSnapshot]) -> [String: [UInt8]] {
        var messages: [String: [UInt8]] = [:]
        let device = "tminus_" + feed.slug.replacingOccurrences(of: "-", with: "_")
        for snapshot in snapshots {
            let object = "c" + SHA256Hex.prefix(Data(snapshot.uid.utf8), bytes: 6)
            let base = "\(settings.topic)/\(feed.slug)/\(object)"
            messages[base + "/state"] = Array(String(snapshot.days).utf8)
            messages[base + "/attributes"] = Self.json([
                "title": snapshot.title, "date": snapshot.date, "start": snapshot.start, "days": snapshot.days, "workdays": snapshot.workdays,
                "progress": snapshot.progress.map { ($0 * 1000).rounded() / 1000 } ?? NSNull(), "state": snapshot.state, "text": snapshot.text,
                "uid": snapshot.uid, "feed": feed.slug, "categories": snapshot.categories,
            ])
            guard let prefix = settings.discoveryPrefix else { continue }
            messages["\(prefix)/sensor/\(device)/\(object)/config"] = Self.json([
                "name": snapshot.title,
                "unique_id": "\(device)_\(object)",
                "object_id": "\(device)_\(object)",
                "state_topic": base + "/state",
                "json_attributes_topic": base + "/attributes",
                "unit_of_measurement": "d",
                "device_class": "duration",
                "icon": "mdi:timer-sand",
                "availability_topic": settings.topic + "/status",
                "payload_available": "online",
                "payload_not_available": "offline",
                "device": ["identifiers": [device], "name": feed.name, "manufacturer": "tminus", "model": "Countdown feed", "sw_version": version],
                "origin": ["name": "tminus", "sw_version": version],
            ])
        }
        return messages
    }

    private static func json(_ object: [String: Any?]) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object.compactMapValues { $0 }, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data())
    }
}
