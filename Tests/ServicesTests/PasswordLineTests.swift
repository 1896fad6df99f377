import CountdownStore
@testable import Services
import Testing

/// Regression (session 37): the bcrypt line was the process's, so one server's
/// full line refused another's sign-ins ("too many sign-ins at once" in a test
/// that signed in twice, beside others that were hashing). Each service keeps
/// its own line now; only the thread is shared.
struct PasswordLineTests {
    @Test func aFullLineRefusesItsOwnSignInsOnlyAndEmptiesAgain() async throws {
        let crowded = CountdownService(store: InMemoryCountdownStore())
        let quiet = CountdownService(store: InMemoryCountdownStore())
        try await crowded.addPerson(login: "anna", password: "a long enough password", cost: 4)
        try await quiet.addPerson(login: "ben", password: "bens long password", cost: 4)
        for _ in 0..<PasswordHashing.maxWaiting { #expect(crowded.passwords.waiting.enter(nil)) }

        await #expect(throws: PasswordHashing.Busy.self) { try await crowded.signIn(login: "anna", password: "a long enough password") }
        #expect(try await quiet.signIn(login: "ben", password: "bens long password") != nil)
        // A copy acting as someone else waits in the same line: the server's.
        await #expect(throws: PasswordHashing.Busy.self) {
            try await crowded.acting(as: .adminToken).setPassword(login: "anna", to: "another long password", cost: 4)
        }

        for _ in 0..<PasswordHashing.maxWaiting { crowded.passwords.waiting.leave(nil) }
        #expect(try await crowded.signIn(login: "anna", password: "a long enough password") != nil)
    }
}
