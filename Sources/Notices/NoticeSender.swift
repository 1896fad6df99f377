import AsyncHTTPClient
import Foundation
import NIOCore
import Subscriptions

/// Sends one notice to a webhook or an ntfy topic, once. Goes out under the
/// rules of source fetches (`PinnedClient`): public addresses only unless
/// `--allow-private-sources`, connected to the address checked, and a
/// redirect is a failure, never followed (a signed body must not be handed on).
package struct NoticeSender: Sendable {
    package let policy: AddressPolicy
    package let userAgent: String
    package let clock: @Sendable () -> Date
    package var timeout: TimeAmount = .seconds(15)

    package init(policy: AddressPolicy, userAgent: String, clock: @escaping @Sendable () -> Date, timeout: TimeAmount = .seconds(15)) {
        self.policy = policy
        self.userAgent = userAgent
        self.clock = clock
        self.timeout = timeout
    }

    package struct Failed: Error, CustomStringConvertible {
        package var description: String
        /// True when trying again cannot help (a 4xx other than 408 and 429, a refused address, a missing secret).
        package var permanent = false
    }

    package func send(_ notice: Notice, to target: NoticeTarget) async throws(Failed) {
        switch target.kind {
        case .webhook(let url, let secret):
            let key: String
            do { key = try secret.read() } catch { throw Failed(description: "the webhook's secret: \(error)", permanent: true) }
            let timestamp = Int(clock().timeIntervalSince1970)
            try await post(url, body: notice.body, headers: [
                ("Content-Type", "application/json"),
                ("Tminus-Event", notice.event.rawValue),
                ("Tminus-Delivery", notice.id),
                ("Tminus-Timestamp", String(timestamp)),
                ("Tminus-Signature", NoticeSignature.sign(body: notice.body, timestamp: timestamp, secret: key)),
            ])
        case .ntfy(let url, let token):
            // JSON publishing (to the server's root, naming the topic) carries any title, where a header could not.
            guard let topicURL = URL(string: url), let topic = topicURL.pathComponents.last, topic != "/" else {
                throw Failed(description: "\(url) names no ntfy topic", permanent: true)
            }
            var root = URLComponents(url: topicURL, resolvingAgainstBaseURL: false)
            root?.path = String(topicURL.path.dropLast(topic.count))
            root?.query = nil
            let message: [String: Any] = ["topic": topic, "title": notice.title, "message": notice.message,
                                          "tags": [notice.event == .milestones ? "hourglass_flowing_sand" : "calendar"]]
            var headers = [("Content-Type", "application/json")]
            if let token {
                do { headers.append(("Authorization", "Bearer " + (try token.read()))) } catch {
                    throw Failed(description: "the ntfy token: \(error)", permanent: true)
                }
            }
            let body = (try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys])) ?? Data()
            try await post(root?.string ?? url, body: Array(body), headers: headers)
        case .mqtt:
            return
        }
    }

    private func post(_ url: String, body: [UInt8], headers: [(String, String)]) async throws(Failed) {
        let pinned: PinnedClient
        do { pinned = try await PinnedClient.connect(to: url, policy: policy) } catch { throw Failed(description: error.description, permanent: true) }
        defer { let client = pinned.client; Task { try? await client.shutdown() } }
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "User-Agent", value: userAgent)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let status: Int
        do {
            status = Int(try await pinned.client.execute(request, timeout: timeout).status.code)
        } catch {
            throw Failed(description: "cannot reach it: \(error)")
        }
        switch status {
        case 200..<300: return
        case 300..<400: throw Failed(description: "it answered \(status), a redirect, which is not followed", permanent: true)
        case 408, 429, 500...: throw Failed(description: "it answered \(status)")
        default: throw Failed(description: "it answered \(status)", permanent: true)
        }
    }
}
