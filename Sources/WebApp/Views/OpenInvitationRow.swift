/// An open invitation as a page lists it: what it grants, who made it and
/// until when, in the reader's words, and its id to revoke it by (issue #59, 9).
package struct OpenInvitationRow: Sendable {
    package var id: String
    package var text: String
}
