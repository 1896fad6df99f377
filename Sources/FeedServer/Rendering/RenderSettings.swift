import Countdowns
import CountdownStore
import Foundation

/// What every render needs besides the feed: where the server is, whether it
/// offers gzip, and the expansion bound.
struct RenderSettings: Sendable {
    var baseURL: String
    var gzip: Bool
    var maxOccurrences: Int
    /// The Mustache templates every HTML page is rendered from (public pages and the web app).
    var pages: WebPages

    func cacheControl(_ feed: Feed, maxAge: Int) -> String { (feed.isPublic ? "public" : "private") + ", max-age=\(maxAge)" }

    /// Uploaded blobs are served from /images/<sha256>; URIs stay as they are.
    func imageURL(_ reference: String) -> String? {
        guard reference.hasPrefix(StoredImage.scheme) else { return reference }
        return baseURL + "/images/" + reference.dropFirst(StoredImage.scheme.count)
    }
}
