import Services
import Testing

/// Regression (issue #59, 12): forty parallel wrong current passwords from one signed-in person filled the single
/// bcrypt queue, and other people's right sign-ins got 503. Each client now has at most its share of the queue.
struct FairAdmissionTests {
    @Test func aClientGetsItsShareAndTheOthersKeepTheirPlaces() {
        let queue = FairAdmission(total: 4, perClient: 2)
        #expect(queue.enter("mallory") && queue.enter("mallory"))
        #expect(!queue.enter("mallory"), "a third place for one client is refused")
        #expect(queue.enter("anna"), "another client still gets in")
        #expect(queue.enter(nil), "work no client asked for is bounded by the total alone")
        #expect(!queue.enter("ben"), "the total holds")
        queue.leave("mallory")
        #expect(queue.taken(by: "mallory") == (total: 3, client: 1))
        #expect(queue.enter("ben"))
        for client in ["mallory", "anna", "ben", nil] { queue.leave(client) }
        #expect(queue.taken(by: "anna") == (total: 0, client: 0), "every place given back")
        #expect(queue.enter("mallory") && queue.enter("mallory"), "and taken again")
    }
}
