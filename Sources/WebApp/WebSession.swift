import CountdownStore
import Foundation
import Services

/// What a signed-in browser's session holds. A session exists only after a
/// successful sign-in (anonymous visitors cause no store writes); its id is the
/// HttpOnly, SameSite=Strict cookie, and the store keeps only the id's hash.
package struct WebSession: Codable, Sendable {
    package var signedInAt: Date
    /// Whose session it is. Nil for sessions made before people existed
    /// (schema v15), which end at their next request.
    package var personId: Int64?
    /// The person's sessions' epoch when this one began
    /// (`PersonRecord.sessionEpoch`): a new password or "Sign out everywhere"
    /// moves it on, and every session of an older one ends.
    package var epoch: String?
    /// One line shown on the next page ("Saved “Rent”."), then cleared.
    package var flash: String?
    /// The countdown deleted last, for "Undo": its feed and its iCalendar text.
    package var undo: DeletedCountdown?
    /// The password was right and the second factor's code is asked next:
    /// nothing behind the sign-in is open to this session yet.
    package var awaitingSecondFactor: Bool?
    /// Wrong codes this waiting session sent: at `maxWrongCodes` it ends, and the password is asked again.
    package var wrongCodes: Int?

    package static let maxWrongCodes = 3

    package init(signedInAt: Date, person: SignedInPerson, flash: String?, awaitingSecondFactor: Bool = false) {
        self.signedInAt = signedInAt
        self.personId = person.access.id
        self.epoch = person.sessionEpoch
        self.flash = flash
        self.awaitingSecondFactor = awaitingSecondFactor ? true : nil
    }
}

/// A deleted countdown, kept whole so that Undo brings back the same UID.
package struct DeletedCountdown: Codable, Sendable {
    package var feed: String
    package var title: String
    package var sequence: Int
    package var calendar: String
}
