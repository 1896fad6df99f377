import CountdownStore
import Foundation
import Services

/// What a signed-in browser's session holds. A session exists only after a
/// successful sign-in (anonymous visitors cause no store writes); its id is the
/// HttpOnly, SameSite=Strict cookie, and the store keeps only the id's hash.
package struct WebSession: Codable, Sendable {
    package var signedInAt: Date
    /// The sessions' epoch when this one began (`SessionEpoch`): changing the
    /// password or "Sign out everywhere" starts a new epoch, and every session
    /// of an older one ends. Nil for sessions made before epochs existed, which
    /// stay valid until the first change.
    package var epoch: String?
    /// One line shown on the next page ("Saved “Rent”."), then cleared.
    package var flash: String?
    /// The countdown deleted last, for "Undo": its feed and its iCalendar text.
    package var undo: DeletedCountdown?
}

/// Which sessions are still valid, kept in the store's settings so that every
/// replica agrees: a random value that changes when the owner's password is
/// set or the owner signs out everywhere. Random rather than a counter, so two
/// changes at once need no read-modify-write.
package enum SessionEpoch {
    package static func current(in service: CountdownService) async throws -> String? {
        try await service.acting(as: .system).setting(.sessionEpoch)
    }
}

/// A deleted countdown, kept whole so that Undo brings back the same UID.
package struct DeletedCountdown: Codable, Sendable {
    package var feed: String
    package var title: String
    package var sequence: Int
    package var calendar: String
}
