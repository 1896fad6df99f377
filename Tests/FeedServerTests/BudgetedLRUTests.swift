@testable import Catalog
@testable import FeedServer
import ServerTestSupport
import Testing

/// The render cache's and list orders' store: least recently used out first, within a byte budget.
struct BudgetedLRUTests {
    @Test func aHitMakesAnEntryTheNewestAndTheOldestGoesFirst() {
        var cache = BudgetedLRU<String, Int>(budgetBytes: 30)
        cache.insert("a", 1, size: 10)
        cache.insert("b", 2, size: 10)
        cache.insert("c", 3, size: 10)
        #expect(cache.keysNewestFirst == ["c", "b", "a"])
        #expect(cache.use("a") == 1)
        #expect(cache.keysNewestFirst == ["a", "c", "b"])
        cache.insert("d", 4, size: 10)
        #expect(cache.keysNewestFirst == ["d", "a", "c"], "b was used least recently")
        #expect(cache.use("b") == nil)
        #expect(cache.evictions == 1)
        #expect(cache.bytes == 30)
    }

    @Test func replacingAValueCountsItsNewSizeOnce() {
        var cache = BudgetedLRU<String, Int>(budgetBytes: 100)
        cache.insert("a", 1, size: 10)
        cache.insert("b", 2, size: 10)
        cache.insert("a", 3, size: 50)
        #expect(cache.bytes == 60)
        #expect(cache.count == 2)
        #expect(cache.keysNewestFirst == ["a", "b"])
        #expect(cache.use("a") == 3)
        #expect(cache.use("b") == 2)
        #expect(cache.keysNewestFirst == ["b", "a"])
    }

    @Test func theNewestStaysEvenPastTheBudget() {
        var cache = BudgetedLRU<String, Int>(budgetBytes: 10)
        cache.insert("small", 1, size: 5)
        cache.insert("large", 2, size: 500)
        #expect(cache.keysNewestFirst == ["large"])
        #expect(cache.bytes == 500)
        cache.insert("next", 3, size: 5)
        #expect(cache.keysNewestFirst == ["next"])
        #expect(cache.bytes == 5)
        #expect(cache.evictions == 2)
    }

    @Test func manyInsertsAndHitsKeepTheListWhole() {
        var cache = BudgetedLRU<Int, Int>(budgetBytes: 64)
        for round in 0..<2_000 {
            cache.insert(round % 97, round, size: 1 + round % 3)
            _ = cache.use((round * 31) % 97)
            let keys = cache.keysNewestFirst
            #expect(keys.count == cache.count && Set(keys).count == keys.count)
            if keys.count != cache.count { return }
        }
        #expect(cache.bytes <= 64)
    }
}
