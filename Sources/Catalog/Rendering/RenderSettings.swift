import Countdowns
import CountdownStore
import Foundation
import Pages

/// What every render needs besides the feed: where the server is, whether it
/// offers gzip, and the expansion bound.
package struct RenderSettings: Sendable {
    package var baseURL: String
    package var gzip: Bool
    package var maxOccurrences: Int
    /// The Mustache templates every HTML page is rendered from (public pages and the web app).
    package var pages: WebPages
    /// The build serving, part of a kept export's variant.
    package var build = "dev"

    package init(baseURL: String, gzip: Bool, maxOccurrences: Int, pages: WebPages, build: String = "dev") {
        self.baseURL = baseURL
        self.gzip = gzip
        self.maxOccurrences = maxOccurrences
        self.pages = pages
        self.build = build
    }

    /// Public feeds may be kept by shared caches (a CDN, nginx `proxy_cache`) as
    /// long as by browsers, served stale while the cache revalidates, and for a
    /// day while tminus cannot answer; private ones by the client alone.
    package func cacheControl(_ feed: Feed, maxAge: Int) -> String {
        feed.isPublic ? Self.sharedCacheControl(maxAge: maxAge) : Self.privateCacheControl(maxAge: maxAge)
    }

    /// How long a feed's calendars and cards may be kept before a client asks again (Cache-Control's max-age).
    package static let feedMaxAge = 300

    package static func sharedCacheControl(maxAge: Int) -> String {
        "public, max-age=\(maxAge), s-maxage=\(maxAge), stale-while-revalidate=\(maxAge), stale-if-error=86400"
    }

    package static func privateCacheControl(maxAge: Int) -> String { "private, max-age=\(maxAge)" }

    /// The `max-age` a Cache-Control value names, 0 when it names none. Read
    /// byte by byte: every representation made reads it (a feed not in memory,
    /// once per request), and Foundation's trimming was 4% of such a request.
    package static func maxAge(of cacheControl: String) -> Int {
        for directive in cacheControl.utf8.split(separator: UInt8(ascii: ",")) {
            let name = directive.drop { $0 == UInt8(ascii: " ") }
            guard name.starts(with: "max-age=".utf8) else { continue }
            var seconds = 0
            for byte in name.dropFirst(8) {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), seconds < Int(Int32.max) else { break }
                seconds = seconds * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return seconds
        }
        return 0
    }

    /// What a kept export's bytes depend on besides the feed's revision: the
    /// build that wrote them, where images are linked from, whether a gzipped
    /// copy goes with them, and the years repeats in other calendars are
    /// spelled out for. A row of another variant is rendered again.
    package func exportVariant(_ dates: OtherCalendarDates) -> String {
        "\(build)|\(baseURL)|gzip=\(gzip)|\(dates.form.rawValue) \(dates.window.lowerBound)...\(dates.window.upperBound)"
    }

    /// Uploaded blobs are served from /images/<sha256>; URIs stay as they are.
    package func imageURL(_ reference: String) -> String? {
        guard reference.hasPrefix(StoredImage.scheme) else { return reference }
        return baseURL + "/images/" + reference.dropFirst(StoredImage.scheme.count)
    }
}
