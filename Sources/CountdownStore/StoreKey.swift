/// A value the store keeps by key: one of the server's settings (text, shared
/// by replicas), or an expiring entry of the web app's sessions, kept under
/// the SHA-256 of its key so that a copy of the database opens no session.
public enum StoreKey: Sendable, Hashable {
    case setting(SettingKey)
    case entry(keyHash: String)
}
