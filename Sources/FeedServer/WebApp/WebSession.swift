import Foundation

/// What a signed-in browser's session holds. A session exists only after a
/// successful sign-in (anonymous visitors cause no store writes); its id is the
/// HttpOnly, SameSite=Strict cookie, and the store keeps only the id's hash.
struct WebSession: Codable, Sendable {
    var signedInAt: Date
    /// One line shown on the next page ("Saved “Rent”."), then cleared.
    var flash: String?
    /// The countdown deleted last, for "Undo": its feed and its iCalendar text.
    var undo: DeletedCountdown?
}

/// A deleted countdown, kept whole so that Undo brings back the same UID.
struct DeletedCountdown: Codable, Sendable {
    var feed: String
    var title: String
    var sequence: Int
    var calendar: String
}
