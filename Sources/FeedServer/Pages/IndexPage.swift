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
}
