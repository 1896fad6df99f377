import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Tells a CDN in front that a feed changed: a POST to the feed's `purge` URL
/// with `Surrogate-Key: feed-<slug>` and a JSON body naming the feed, its new
/// revision and its public URLs, so that the hook can purge by key or by URL.
/// Sent in the background (a slow hook delays nothing) by every replica that
/// recompiles the feed; purges are idempotent, so a second one costs nothing.
struct PurgeNotifier: Sendable {
    let baseURL: String
    let logger: Logger
    var timeout: TimeAmount = .seconds(10)

    struct Body: Encodable {
        var feed: String
        var revision: Int64
        var surrogateKey: String
        var urls: [String]
    }

    func changed(_ compiled: CompiledFeed) {
        guard let url = compiled.feed.purgeURL else { return }
        let base = baseURL + "/feeds/" + compiled.slug
        let body = Body(feed: compiled.slug, revision: compiled.revision, surrogateKey: "feed-" + compiled.slug,
                        urls: compiled.feed.isPublic ? [base + ".ics", base + ".json", base + "/countdown.ics", base] : [])
        let (logger, timeout) = (logger, timeout)
        Task {
            do {
                var request = HTTPClientRequest(url: url)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.headers.add(name: "Surrogate-Key", value: body.surrogateKey)
                request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
                let response = try await HTTPClient.shared.execute(request, timeout: timeout)
                guard (200..<300).contains(Int(response.status.code)) else {
                    throw PurgeFailed(status: Int(response.status.code))
                }
                logger.info("purge sent", metadata: ["feed": "\(body.feed)", "revision": "\(body.revision)"])
            } catch {
                logger.warning("purge hook failed; shared caches keep the old copy until s-maxage",
                               metadata: ["feed": "\(body.feed)", "error": "\(error)"])
            }
        }
    }

    struct PurgeFailed: Error, CustomStringConvertible {
        var status: Int
        var description: String { "the hook answered \(status)" }
    }
}
