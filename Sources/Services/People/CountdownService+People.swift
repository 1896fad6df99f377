import Countdowns
import CountdownStore
import Foundation

/// People (issue #37): made by an administrator (or the operator's command
/// line), each with a bcrypt hash of their password and API tokens of their own.
extension CountdownService {
    /// Makes a person; refused when the login is taken or not a valid login.
    @discardableResult
    public func addPerson(login: String, displayName: String? = nil, password: String, isAdmin: Bool = false,
                          cost: UInt8 = PasswordPolicy.cost) async throws -> PersonRecord {
        try await authorize(.administer)
        let hash = try await newPerson(login: login, password: password, cost: cost)
        return try await transaction { tx in try await Self.savePerson(login: login, displayName: displayName, hash: hash, isAdmin: isAdmin, tx) }
    }

    /// Everyone, by login.
    public func people() async throws -> [PersonRecord] {
        try await authorize(.administer)
        return try await store.read { reader in try await reader.personRows(nil) }
    }

    /// A new API token for `login` (an administrator's, or the person's own),
    /// returned once with its secret; only its hash is kept. `readOnly` tokens
    /// only read; `expiresIn` ends it.
    public func createPersonToken(login: String, label: String, readOnly: Bool, expiresIn: TimeInterval? = nil) async throws
        -> (secret: String, token: PersonTokenRecord) {
        try await createSecret("tmp_" + Secret.generate(bytes: 24), purpose: .api, login: login, label: label, readOnly: readOnly, expiresIn: expiresIn)
    }

    /// A new app password for `login` (an administrator's, or the person's
    /// own): what a calendar app signs in with over CalDAV, beside the login
    /// name. Returned once; only its hash is kept; revoked like a token.
    public func createAppPassword(login: String, label: String, readOnly: Bool = false) async throws -> (secret: String, token: PersonTokenRecord) {
        try await createSecret(AppPassword.generate(), purpose: .app, login: login, label: label, readOnly: readOnly, expiresIn: nil)
    }

    private func createSecret(_ secret: String, purpose: PersonTokenRecord.Purpose, login: String, label: String, readOnly: Bool,
                              expiresIn: TimeInterval?) async throws -> (secret: String, token: PersonTokenRecord) {
        try await authorizeSelf(login)
        let label = Self.line(label)
        guard !label.isEmpty, label.count <= 100 else { throw StoreError.invalid("a label must have 1 to 100 characters") }
        let token = try await transaction { tx in
            guard let person = try await tx.personRows(.login(login)).first else { throw StoreError.personNotFound(login) }
            return try await tx.save(PersonTokenRecord(personId: try person.savedID(), label: label, tokenHash: Secret.hash(AppPassword.normalized(secret)),
                                                                  readOnly: readOnly, createdAt: tx.now,
                                                                  expiresAt: expiresIn.map { tx.now.addingTimeInterval($0) }, purpose: purpose))
        }
        return (secret, token)
    }

    /// The person the principal is.
    public func me() async throws -> PersonRecord {
        guard case .person(let me) = principal else { throw StoreError.invalid("not a person: the operator's token, the owner or the server") }
        guard let person = try await store.read({ try await $0.personRows(.id(me.id)).first }) else { throw StoreError.personNotFound(me.login) }
        return person
    }

    /// Disables a person (their tokens and sessions stop at once) or enables them again.
    public func setDisabled(login: String, _ disabled: Bool) async throws {
        try await authorize(.administer)
        if disabled, case .person(let me) = principal, me.login == login { throw StoreError.invalid("you cannot disable yourself") }
        try await transaction { tx in
            guard var person = try await tx.personRows(.login(login)).first else { throw StoreError.personNotFound(login) }
            guard (person.disabledAt != nil) != disabled else { return }
            person.disabledAt = disabled ? tx.now : nil
            _ = try await tx.save(person)
        }
    }

    /// Deletes a person: their memberships and tokens go with them; their own
    /// feeds are handed to `handTo`, or deleted with them; on the history of
    /// countdowns their name stays, as a former member's ("Ben (former
    /// member)"), so that a new person with the same login is not credited
    /// with it. Refused for oneself, and while they are the last owner of a space.
    public func deletePerson(login: String, handTo heir: String?) async throws {
        try await authorize(.administer)
        if case .person(let me) = principal, me.login == login { throw StoreError.invalid("you cannot delete yourself") }
        if heir == login { throw StoreError.invalid("hand \(login)'s feeds to someone else") }
        try await transaction { tx in
            guard let person = try await tx.personRows(.login(login)).first else { throw StoreError.personNotFound(login) }
            let id = try person.savedID()
            let heirId = try await heir.asyncMap { heir in
                guard let found = try await tx.personRows(.login(heir)).first else { throw StoreError.personNotFound(heir) }
                return try found.savedID()
            }
            for membership in try await tx.memberRows(spaceId: nil, personId: id) where membership.role == .owner {
                let slug = try await tx.spaceRows(.id(membership.spaceId)).first?.slug ?? "\(membership.spaceId)"
                try await Self.keepAnOwner(membership.spaceId, besides: id, slug, tx)
            }
            for var feed in try await tx.feedRows(nil, lock: true) where feed.personId == id {
                if let heirId {
                    feed.personId = heirId
                    _ = try await tx.save(feed)
                } else {
                    try await tx.delete(FeedRecord.self, ids: [try feed.savedID()])
                }
            }
            try await tx.relabelHistory(actor: login, as: Self.formerMember(person.displayName))
            try await tx.delete(PersonRecord.self, ids: [id])
        }
    }

    /// A person's API tokens (an administrator's view, or their own), by id.
    public func personTokens(login: String) async throws -> [PersonTokenRecord] {
        try await authorizeSelf(login)
        return try await store.read { reader in
            guard let person = try await reader.personRows(.login(login)).first else { throw StoreError.personNotFound(login) }
            return try await reader.personTokenRows(.person(try person.savedID()))
        }
    }

    /// Revokes one of a person's API tokens (the first revocation's time is kept).
    public func revokePersonToken(login: String, id: Int64) async throws {
        try await authorizeSelf(login)
        try await transaction { tx in
            guard let person = try await tx.personRows(.login(login)).first,
                  var token = try await tx.personTokenRows(.person(try person.savedID())).first(where: { $0.id == id }) else {
                throw StoreError.invalid("\(login) has no token \(id) (see `tminus users tokens \(login)`)")
            }
            guard token.revokedAt == nil else { return }
            token.revokedAt = tx.now
            _ = try await tx.save(token)
        }
    }

    /// An administrator, or the person themselves with a read-write token.
    func authorizeSelf(_ login: String) async throws {
        if case .person(let me) = principal, me.login == login, !me.readOnly { return }
        try await authorize(.administer)
    }

    /// The person an API token's secret acts as, or nil (unknown, revoked,
    /// expired, or its person disabled). Asked for every API request that
    /// is not the operator's token.
    public func person(forToken secret: String) async throws -> PersonAccess? {
        try await person(behind: secret, purpose: .api)
    }

    /// The person `login` names, when `password` is one of their live app
    /// passwords (HTTP Basic from a calendar app); nil otherwise, the same
    /// way whatever was wrong.
    public func person(login: String, appPassword password: String) async throws -> PersonAccess? {
        guard let person = try await person(behind: AppPassword.normalized(password), purpose: .app),
              person.login == PersonRecord.normalizedLogin(login) else { return nil }
        return person
    }

    /// The person a secret of `purpose` acts as, read through `access`.
    private func person(behind secret: String, purpose: PersonTokenRecord.Purpose) async throws -> PersonAccess? {
        let now = clock()
        guard let token = try await personToken(hash: Secret.hash(secret)), token.purpose == purpose, token.isLive(at: now),
              let person = try await person(id: token.personId), person.disabledAt == nil, let id = person.id else { return nil }
        // When it was last used, to the minute: one write a minute at most, not one a request. Not a
        // use case's transaction: nothing the permission check keeps changes, so nothing is forgotten.
        if token.lastUsedAt.map({ now.timeIntervalSince($0) >= 60 }) ?? true {
            let used = try await store.transaction { tx -> PersonTokenRecord? in
                guard var fresh = try await tx.personTokenRows(.hash(token.tokenHash)).first else { return nil }
                if (fresh.lastUsedAt ?? .distantPast) < now {
                    fresh.lastUsedAt = now
                    return try await tx.save(fresh)
                }
                return fresh
            }
            if let used { access.update(token: used) }
        }
        return PersonAccess(id: id, login: person.login, isAdmin: person.isAdmin, readOnly: token.readOnly, app: purpose == .app ? token.label : nil)
    }
}

extension CountdownService {
    /// How the history names someone who was deleted.
    static func formerMember(_ name: String) -> String { "\(name) (former member)" }

    /// A name or label as one line: XML-safe, line breaks as spaces, trimmed.
    static func line(_ text: String) -> String {
        SafeText.clean(text).split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }
}
