import Countdowns
import CountdownStore
import Foundation

/// People (issue #37): made by an administrator (or the operator's command
/// line), each with a bcrypt hash of their password and API tokens of their own.
extension CountdownService {
    /// Makes a person; refused when the login is taken or not a valid login.
    @discardableResult
    public func addPerson(login: String, displayName: String? = nil, password: String, isAdmin: Bool = false,
                          cost: UInt8 = OwnerPassword.cost) async throws -> PersonRecord {
        try await authorize(.administer)
        guard PersonRecord.isValidLogin(login) else {
            throw StoreError.invalid("'\(login)' is not a valid login: use 1 to 64 lower-case letters, digits, dots, dashes and underscores")
        }
        try OwnerPassword.check(password)
        let hash = try await PasswordHashing.hash(password, cost: cost)
        let name = Self.line(displayName ?? login)
        return try await transaction { tx in
            guard try await tx.personRows(.login(login)).isEmpty else { throw StoreError.invalid("a person '\(login)' already exists") }
            return try await tx.savePerson(PersonRecord(login: login, displayName: name.isEmpty ? login : name, passwordHash: hash,
                                                        isAdmin: isAdmin, createdAt: tx.now))
        }
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
        if case .person(let me) = principal, me.login == login, !me.readOnly {} else { try await authorize(.administer) }
        let label = Self.line(label)
        guard !label.isEmpty, label.count <= 100 else { throw StoreError.invalid("a token's label must have 1 to 100 characters") }
        let secret = "tmp_" + Secret.generate(bytes: 24)
        let token = try await transaction { tx in
            guard let person = try await tx.personRows(.login(login)).first else { throw StoreError.personNotFound(login) }
            return try await tx.savePersonToken(PersonTokenRecord(personId: try person.savedID(), label: label, tokenHash: Secret.hash(secret),
                                                                  readOnly: readOnly, createdAt: tx.now,
                                                                  expiresAt: expiresIn.map { tx.now.addingTimeInterval($0) }))
        }
        return (secret, token)
    }

    /// The person an API token's secret acts as, or nil (unknown, revoked,
    /// expired, or its person disabled). Asked for every API request that
    /// is not the operator's token.
    public func person(forToken secret: String) async throws -> PersonAccess? {
        let now = clock()
        return try await store.read { reader in
            guard let token = try await reader.personTokenRows(.hash(Secret.hash(secret))).first, token.isLive(at: now),
                  let person = try await reader.personRows(.id(token.personId)).first, person.disabledAt == nil, let id = person.id else { return nil }
            return PersonAccess(id: id, login: person.login, isAdmin: person.isAdmin, readOnly: token.readOnly)
        }
    }
}

extension CountdownService {
    /// A name or label as one line: XML-safe, line breaks as spaces, trimmed.
    static func line(_ text: String) -> String {
        SafeText.clean(text).split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }
}
