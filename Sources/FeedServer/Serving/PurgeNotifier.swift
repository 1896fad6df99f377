import AsyncHTTPClient
import Catalog
import CountdownStore
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Subscriptions

/// Tells a CDN in front that a feed changed: a POST to the feed's `purge` URL
/// with `Surrogate-Key: feed-<slug>` and a JSON body naming the feed, its new
/// revision and its public URLs, so that the hook can purge by key or by URL.
/// Sent in the background (a slow hook delays nothing) by every replica that
/// learns of the change; purges are idempotent, so a second one costs nothing.
///
/// The hook's URL is anyone's with the admin token or the web app, so it goes
/// out under the rules of source fetches (`PinnedClient`): public addresses
/// only unless `--allow-private-sources`, connected to the address checked,
/// and a redirect is a failure, never followed.
package struct PurgeNotifier: Sendable {
    package let baseURL: String
    package let logger: Logger
    package let policy: AddressPolicy
    package var timeout: TimeAmount = .seconds(10)

    package init(baseURL: String, logger: Logger, policy: AddressPolicy, timeout: TimeAmount = .seconds(10)) {
        self.baseURL = baseURL
        self.logger = logger
        self.policy = policy
        self.timeout = timeout
    }

    package struct Body: Encodable {
        package var feed: String
        package var revision: Int64
        package var surrogateKey: String
        package var urls: [String]
    }

    package struct Failed: Error, CustomStringConvertible {
        package var description: String
    }

    package func changed(_ stored: StoredFeed) {
        guard let url = stored.feed.purgeURL else { return }
        let slug = stored.feed.slug
        let base = baseURL + "/feeds/" + slug
        let body = Body(feed: slug, revision: stored.revision, surrogateKey: Representation.surrogateKey(forFeed: slug),
                        urls: stored.feed.isPublic ? [base + ".ics", base + ".json", base + "/countdown.ics", base] : [])
        Task {
            do {
                try await deliver(body, to: url)
                logger.info("purge sent", metadata: ["feed": "\(body.feed)", "revision": "\(body.revision)"])
            } catch {
                logger.warning("purge hook failed; shared caches keep the old copy until s-maxage",
                               metadata: ["feed": "\(body.feed)", "error": "\(error)"])
            }
        }
    }

    /// One POST to the hook; throws `Failed` saying why it did not succeed.
    package func deliver(_ body: Body, to url: String) async throws(Failed) {
        let pinned: PinnedClient
        do { pinned = try await PinnedClient.connect(to: url, policy: policy) } catch { throw Failed(description: error.description) }
        defer { let client = pinned.client; Task { try? await client.shutdown() } }
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Surrogate-Key", value: body.surrogateKey)
        let status: Int
        do {
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
            status = Int(try await pinned.client.execute(request, timeout: timeout).status.code)
        } catch {
            throw Failed(description: "cannot reach the hook: \(error)")
        }
        guard (200..<300).contains(status) else {
            throw Failed(description: (300..<400).contains(status) ? "the hook answered \(status), a redirect, which is not followed"
                                                                    : "the hook answered \(status)")
        }
    }
}
