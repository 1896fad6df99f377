import Countdowns
import Foundation

/// `/`: the public feeds, each with its subscribe links (template `public-index`).
enum IndexPage {
    struct Entry {
        var slug: String
        var name: String
        var count: Int
        var plural: Bool
        var links: FeedPage.Links
    }

    struct View {
        var feeds: [Entry]
        var isEmpty: Bool
    }

    static func render(feeds: [(feed: Feed, count: Int, links: FeedPage.Links)], pages: WebPages) -> String {
        let entries = feeds.map { Entry(slug: $0.feed.slug, name: $0.feed.name, count: $0.count, plural: $0.count != 1, links: $0.links) }
        return pages.library.render(View(feeds: entries, isEmpty: entries.isEmpty), withTemplate: "public-index") ?? ""
    }

    /// The page as served, for the public feeds among `feeds`; Last-Modified is their latest change.
    static func representation(of feeds: [CompiledFeed], settings: RenderSettings) -> Representation {
        let shown = feeds.filter(\.feed.isPublic)
        let html = render(feeds: shown.map { ($0.feed, $0.series.count, FeedPage.links(baseURL: settings.baseURL, path: "/feeds/\($0.slug)")) },
                          pages: settings.pages)
        return Representation(bytes: Array(html.utf8), contentType: "text/html; charset=utf-8",
                              lastModified: shown.map(\.stored.updatedAt).max() ?? Date(timeIntervalSince1970: 0),
                              cacheControl: "public, max-age=60", extraHeaders: PageHeaders.page)
    }
}
