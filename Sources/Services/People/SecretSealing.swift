/// Seals secrets the store keeps (a person's TOTP secret) under a key
/// outside it, bound to what they belong to: a copied database, a backup or
/// a stolen disk image opens none, and a seal moved to another person's row
/// does not open there. The server's `SecretKeeper` is one (it seals source
/// logins the same way).
public protocol SecretSealing: Sendable {
    /// `binding` names what the secret belongs to (its parts are the seal's associated data).
    func seal(_ secret: String, binding: [String]) throws -> String
    func open(_ sealed: String, binding: [String]) throws -> String
}
