import Synchronization

/// Places in a queue of slow work (bcrypt), shared fairly: at most `total`
/// wait at once, and at most `perClient` of them for any one client. Forty
/// parallel password checks from one signed-in person filled the single
/// bcrypt queue, and everyone else's right sign-in got 503 (issue #59): now a
/// client past its share is refused, and the others keep their places.
package final class FairAdmission: Sendable {
    package let total: Int
    package let perClient: Int
    private let state = Mutex<(count: Int, byClient: [String: Int])>((0, [:]))

    package init(total: Int, perClient: Int) {
        self.total = total
        self.perClient = perClient
    }

    /// Takes a place for `client` (nil: work no client asked for, such as an
    /// administrator's new account, bounded by `total` alone), or returns
    /// false (nothing taken). Each place taken is given back with `leave`.
    package func enter(_ client: String?) -> Bool {
        state.withLock { state in
            let mine = client.map { state.byClient[$0, default: 0] } ?? 0
            guard state.count < total, client == nil || mine < perClient else { return false }
            state.count += 1
            if let client { state.byClient[client] = mine + 1 }
            return true
        }
    }

    package func leave(_ client: String?) {
        state.withLock { state in
            state.count -= 1
            guard let client else { return }
            let mine = state.byClient[client, default: 1] - 1
            state.byClient[client] = mine > 0 ? mine : nil
        }
    }

    /// Places taken now, in all and by `client`.
    package func taken(by client: String) -> (total: Int, client: Int) {
        state.withLock { ($0.count, $0.byClient[client, default: 0]) }
    }
}
