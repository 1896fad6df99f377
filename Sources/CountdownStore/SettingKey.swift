/// The server's settings, kept in the store so that every replica on one store
/// shares them. Stored by these raw names, which never change.
public enum SettingKey: String, Sendable, CaseIterable {
    /// The owner's password, as a bcrypt hash.
    case ownerPasswordHash
    /// The one-time setup link's hash, while no password is set.
    case ownerSetupTokenHash
    /// Which web-app sessions are valid: changes when every session must end.
    case sessionEpoch
    /// The key the web app's CSRF tokens are signed with.
    case csrfKey
    /// The admin API token's hash (PostgreSQL replicas share it).
    case adminTokenHash
    /// The key `?cursor=` texts are signed with (HMAC-SHA256): made at first
    /// start and shared by replicas, so a walk may continue on another one.
    case cursorKey
    /// The last notice of each kind sent for each feed (JSON: `{"changes:exams": "12", "milestones:exams": "2026-11-25"}`),
    /// so that replicas and restarts send each one once.
    case noticeClaims
}
