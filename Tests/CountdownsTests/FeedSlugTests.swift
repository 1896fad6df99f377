import Countdowns
import Testing

struct FeedSlugTests {
    @Test func aFileNameSuggestsASlug() {
        #expect(Feed.slug(suggestedBy: "/tmp/Family Birthdays (2026).ics") == "family-birthdays-2026")
        #expect(Feed.slug(suggestedBy: "Ünnepek.ics") == "unnepek")
        #expect(Feed.slug(suggestedBy: "---.ics") == nil)
        #expect(Feed.slug(suggestedBy: String(repeating: "a-", count: 40) + ".ics")?.utf8.count ?? 99 <= 64)
    }
}
