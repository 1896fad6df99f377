import CountdownStore
import Testing

/// Issue #63, 3: a replica heard `slug:revision` and read a feed again only
/// when the revision moved; a move to a space keeps it, so the owner is said too.
struct FeedChangeTests {
    @Test func aNoticeSaysTheOwnerAndTheOlderFormIsStillRead() throws {
        let moved = FeedChange(slug: "club", revision: 7, owner: .space(3))
        #expect(moved.payload == "club:space-3:7")
        #expect(FeedChange(payload: moved.payload) == moved)
        #expect(FeedChange(payload: "club:person-5:8")?.owner == .person(5))
        let operators = try #require(FeedChange(payload: "club:operator:9"))
        #expect(operators.owner == nil && operators.ownerKnown && operators.revision == 9)
        let older = try #require(FeedChange(payload: "club:9"))
        #expect(older.slug == "club" && older.revision == 9 && !older.ownerKnown)
        #expect(FeedChange(payload: "club:somebody:9") == nil, "a hand-sent NOTIFY is no feed change")
        #expect(FeedChange(payload: "hello") == nil)
    }
}
