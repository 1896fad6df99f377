import CountdownStore
import Foundation

/// Signing in to the web app as a person, their sessions, and their password.
extension CountdownService {
    /// The person `login` and `password` belong to, or nil (no such person,
    /// a wrong password, or disabled: the caller says the same for all three).
    /// Asked before anyone is signed in, so it runs as the server. An unknown
    /// login costs a bcrypt check too, so the answer's time does not tell
    /// which logins exist. `client` (an address, a person) gets its fair share
    /// of the bcrypt queue (`PasswordHashing.Busy` past it).
    public func signIn(login: String, password: String, client: String? = nil) async throws -> SignedInPerson? {
        let login = PersonRecord.normalizedLogin(login)
        let person = PersonRecord.isValidLogin(login)
            ? try await store.read { try await $0.personRows(.login(login)).first } : nil
        guard password.utf8.count <= PasswordPolicy.maxBytes else { return nil }
        guard let person, let id = person.id, let hash = person.passwordHash else {
            try await passwords.spendACheck(password, client: client)
            return nil
        }
        guard try await passwords.verify(password, hash: hash, client: client), person.disabledAt == nil else { return nil }
        return SignedInPerson(person, id: id)
    }

    /// Who a session for person `id`, begun under `epoch`, is for now; nil
    /// when it has ended: the person was deleted or disabled, or their
    /// sessions' epoch moved on. Asked for every page, as the server, and
    /// answered from `access` until a change.
    public func sessionPerson(id: Int64, epoch: String?) async throws -> SignedInPerson? {
        guard let person = try await person(id: id), person.disabledAt == nil,
              person.sessionEpoch == epoch else { return nil }
        return SignedInPerson(person, id: id)
    }

    /// The person an authenticating proxy named (`--user-header`), if they
    /// have an account and are not disabled. The proxy checked who they are;
    /// tminus decides what they may do. Asked for every such request, as the server.
    /// With `creating`, a login nobody has yet becomes a person (no
    /// administrator, no password: the proxy is how they sign in).
    public func proxyPerson(login: String, creating: Bool = false) async throws -> SignedInPerson? {
        let login = PersonRecord.normalizedLogin(login)
        guard PersonRecord.isValidLogin(login) else { return nil }
        var found = try await store.read { try await $0.personRows(.login(login)).first }
        if found == nil, creating {
            found = try await transaction { tx in
                if let raced = try await tx.personRows(.login(login)).first { return raced }
                return try await tx.save(PersonRecord(login: login, displayName: login, passwordHash: nil, createdAt: tx.now))
            }
        }
        guard let person = found, person.disabledAt == nil, let id = person.id else { return nil }
        var signedIn = SignedInPerson(person, id: id)
        signedIn.needsSecondFactor = false
        return signedIn
    }

    /// The signed-in person's language (a code of the app's languages, or nil
    /// for the browser's): kept with them, so that every device they sign in on speaks it.
    public func setLanguage(_ code: String?) async throws {
        let me = try await me()
        try await authorizeSelf(me.login)
        try await transaction { tx in
            guard var person = try await tx.personRows(.id(try me.savedID())).first, person.language != code else { return }
            person.language = code
            _ = try await tx.save(person)
        }
    }

    /// Sets `login`'s password (an administrator, or the person themselves):
    /// every session of theirs begun before ends, and with `revokingTokens`
    /// every API token and app password too (a password changed because it
    /// leaked leaves nothing made with it working; issue #59). Returns the
    /// new epoch, so the session that changed it can go on.
    @discardableResult
    public func setPassword(login: String, to password: String, revokingTokens: Bool = false, cost: UInt8 = PasswordPolicy.cost) async throws -> String {
        try await authorizeSelf(login)
        try PasswordPolicy.check(password)
        let hash = try await passwords.hash(password, cost: cost)
        let epoch = Secret.generate(bytes: 16)
        try await transaction { tx in
            guard var person = try await tx.personRows(.login(login)).first else { throw StoreError.personNotFound(login) }
            person.passwordHash = hash
            person.sessionEpoch = epoch
            person = try await tx.save(person)
            if revokingTokens { try await Self.revokeTokens(of: try person.savedID(), tx) }
        }
        return epoch
    }

    /// Revokes every live API token and app password of the person `id`: one step of a transaction.
    static func revokeTokens(of id: Int64, _ tx: any StoreTransaction) async throws {
        for var token in try await tx.personTokenRows(.person(id)) where token.revokedAt == nil {
            token.revokedAt = tx.now
            _ = try await tx.save(token)
        }
    }

    /// Ends every session of the signed-in person but the one asking ("Sign
    /// out everywhere"): a new random epoch, returned for that one to keep.
    public func signOutEverywhere() async throws -> String {
        let me = try await me()
        let epoch = Secret.generate(bytes: 16)
        try await transaction { tx in
            guard var person = try await tx.personRows(.id(try me.savedID())).first else { throw StoreError.personNotFound(me.login) }
            person.sessionEpoch = epoch
            _ = try await tx.save(person)
        }
        return epoch
    }
}
