import Foundation
import Synchronization

/// When each feed token was last used, noted in memory on every token read and
/// saved now and then (`FeedCatalog.saveTokenUses`): a token's "last used" is
/// a write every few minutes, never one per request.
final class TokenUseLog: Sendable {
    private let uses = Mutex<[Int64: Date]>([:])

    func note(_ token: Int64, at time: Date) { uses.withLock { $0[token] = time } }

    /// The uses noted since the last call, forgotten here.
    func take() -> [Int64: Date] { uses.withLock { uses in defer { uses = [:] }; return uses } }
}
