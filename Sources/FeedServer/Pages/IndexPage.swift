import Foundation
import Countdowns

/// `/`: the public feeds, each with its subscribe links.
enum IndexPage {
    static func render(feeds: [(feed: Feed, count: Int, links: FeedPage.Links)]) -> String {
        var items = ""
        for entry in feeds {
            items += """
                <li class="feed"><a class="name" href="/feeds/\(HTMLEscape.text(entry.feed.slug))">\(HTMLEscape.text(entry.feed.name))</a>
                <span class="count">\(entry.count) countdown\(entry.count == 1 ? "" : "s")</span>
                <a class="button" href="\(HTMLEscape.text(entry.links.webcal))">Subscribe</a>
                <a class="button secondary" href="\(HTMLEscape.text(entry.links.https))">.ics</a></li>

                """
        }
        if feeds.isEmpty { items = "<li>No public feeds yet. Add files to feeds/ or use the admin API.</li>" }
        return HTMLDocument.render(title: "tminus", body: """
            <header><h1>tminus</h1><p class="description">Countdowns from calendars, as calendars.</p></header>
            <main><ul class="feeds">
            \(items)</ul></main>

            """)
    }

    /// The page as served, for the public feeds among `feeds`; Last-Modified is their latest change.
    static func representation(of feeds: [CompiledFeed], baseURL: String) -> Representation {
        let shown = feeds.filter(\.feed.isPublic)
        let html = render(feeds: shown.map { ($0.feed, $0.series.count, FeedPage.links(baseURL: baseURL, path: "/feeds/\($0.slug)")) })
        return Representation(bytes: Array(html.utf8), contentType: "text/html; charset=utf-8",
                              lastModified: shown.map(\.stored.updatedAt).max() ?? Date(timeIntervalSince1970: 0),
                              cacheControl: "public, max-age=60", extraHeaders: PageHeaders.page)
    }
}
