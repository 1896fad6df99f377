@testable import Catalog
@testable import FeedServer
import ServerTestSupport
import Testing

/// When freed heap goes back to the system (`HeapTrim`).
struct HeapTrimTests {
    /// Issue #41: a 10k feed's page, `countdown.ics` and 1,000-row JSON page
    /// are under a megabyte each, but each render freed megabytes that stayed
    /// resident (8 MB of 46 after every output once): a long render is
    /// followed by a trim whatever its size.
    @Test func aLongRenderOfASmallOutputIsFollowedByATrim() {
        #expect(HeapTrim.follows(renderOf: 40_000, taking: .milliseconds(22)))
        #expect(HeapTrim.follows(renderOf: 40_000, taking: HeapTrim.afterRenderDuration))
    }

    @Test func aLargeOutputIsFollowedByATrimHoweverQuick() {
        #expect(HeapTrim.follows(renderOf: 5_500_000, taking: .microseconds(300)))
    }

    /// Most renders are small and quick (a card, a cached feed's first JSON
    /// page): a trim after each would walk the heap for nothing.
    @Test func aQuickSmallRenderIsNot() {
        #expect(!HeapTrim.follows(renderOf: 12_000, taking: .milliseconds(2)))
        #expect(!HeapTrim.follows(renderOf: HeapTrim.afterRenderBytes - 1, taking: HeapTrim.afterRenderDuration - .microseconds(1)))
    }
}
