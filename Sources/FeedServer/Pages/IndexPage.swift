import Countdowns
import CountdownStore
import Foundation
import Mustache

/// `/`: the public feeds, each with its subscribe links (template `public-index`).
enum IndexPage {
    /// One feed as the template reads it, looked up by name (`MustacheParent`)
    /// rather than through Mirror: with 600 feeds, the Mirror lookups made
    /// rendering the index most of the cost of creating a feed (issue #27).
    struct Entry: MustacheParent {
        var slug: String
        var name: String
        var count: Int
        var plural: Bool
        var webcal: String
        var https: String

        func child(named name: String) -> Any? {
            switch name {
            case "slug": slug
            case "name": self.name
            case "count": count
            case "plural": plural
            case "webcal": webcal
            case "https": https
            default: nil
            }
        }
    }

    struct View {
        var feeds: [Entry]
        var isEmpty: Bool
    }

    static func render(feeds: [(feed: Feed, count: Int, links: FeedPage.Links)], pages: WebPages) -> String {
        let entries = feeds.map { Entry(slug: $0.feed.slug, name: $0.feed.name, count: $0.count, plural: $0.count != 1,
                                        webcal: $0.links.webcal, https: $0.links.https) }
        return pages.english.library.render(View(feeds: entries, isEmpty: entries.isEmpty), withTemplate: "public-index") ?? ""
    }

    /// The page as served, for the public feeds among `feeds`; Last-Modified is their latest change.
    static func representation(of feeds: [StoredFeed], settings: RenderSettings) -> Representation {
        let shown = feeds.filter(\.feed.isPublic)
        let html = render(feeds: shown.map { ($0.feed, $0.countdownCount, FeedPage.links(baseURL: settings.baseURL, path: "/feeds/\($0.feed.slug)")) },
                          pages: settings.pages)
        return Representation(bytes: Array(html.utf8), contentType: "text/html; charset=utf-8",
                              lastModified: shown.map(\.updatedAt).max() ?? Date(timeIntervalSince1970: 0),
                              cacheControl: "public, max-age=60", extraHeaders: PageHeaders.page)
    }
}
