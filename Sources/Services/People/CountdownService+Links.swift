import CountdownStore
import Foundation

/// Invitations, reset links and open sign-up: how people get an account, or
/// their password back, without e-mail.
extension CountdownService {
    /// A one-time invitation (its secret, shown once, and what it does): into
    /// `space` with `role` (an administrator, or an owner of that space), or
    /// into no space (an administrator).
    public func createInvitation(space: String?, role: SpaceRole?) async throws -> (secret: String, link: OneTimeLink) {
        try await authorize(space.map { .manageSpace($0) } ?? .administer)
        if let space {
            _ = try await store.read { try await Self.requireSpace(space, $0) }
        }
        let purpose = OneTimeLink.Purpose.invitation(space: space, role: space == nil ? nil : role ?? .viewer)
        return try await keep(purpose)
    }

    /// A one-time link that sets `login`'s password (an administrator's, for
    /// a person who forgot theirs).
    public func createResetLink(login: String) async throws -> (secret: String, link: OneTimeLink) {
        try await authorize(.administer)
        guard let person = try await store.read({ try await $0.personRows(.login(login)).first }) else { throw StoreError.personNotFound(login) }
        return try await keep(.reset(personId: try person.savedID(), login: login))
    }

    private func keep(_ purpose: OneTimeLink.Purpose) async throws -> (secret: String, link: OneTimeLink) {
        let secret = Secret.generate(bytes: 24)
        let maker: Int64? = if case .person(let me) = principal { me.id } else { nil }
        let link = OneTimeLink(purpose: purpose, madeBy: principal.actorLabel, madeByPerson: maker, expiresAt: clock().addingTimeInterval(OneTimeLink.lifetime))
        let bytes = try JSONEncoder().encode(link)
        try await transaction { tx in
            if case .invitation = purpose { try await InvitationIndex.add(OpenInvitation(keyHash: OneTimeLink.keyHash(secret), link: link), tx) }
            try await tx.setValue(PersistedValue(bytes: bytes, expiresAt: link.expiresAt), for: OneTimeLink.key(secret))
        }
        return (secret, link)
    }

    /// The invitations not yet used that still open: into `space` (its owners
    /// and administrators see them), or all of them, into any space or none
    /// (an administrator). Those whose maker may no longer invite are left out:
    /// they open nothing.
    public func openInvitations(space: String?) async throws -> [OpenInvitation] {
        try await authorize(space.map { .manageSpace($0) } ?? .administer)
        let now = clock()
        return try await store.read { reader in
            if let space { _ = try await Self.requireSpace(space, reader) }
            var open: [OpenInvitation] = []
            for invitation in try await InvitationIndex.read(reader, now: now) where space == nil || invitation.space == space {
                let link = OneTimeLink(purpose: .invitation(space: invitation.space, role: invitation.role), madeBy: invitation.madeBy,
                                       madeByPerson: invitation.madeByPerson, expiresAt: invitation.expiresAt)
                if try await Self.makerMayStillInvite(link, into: invitation.space, reader) { open.append(invitation) }
            }
            return open.sorted { ($0.expiresAt, $0.id) < ($1.expiresAt, $1.id) }
        }
    }

    /// Revokes the open invitation `id`: whoever may make one into its space
    /// (or, into no space, an administrator). Its link opens nothing from now on.
    /// An id that names none, or one into a space the caller cannot manage,
    /// is answered alike, as not found.
    public func revokeInvitation(id: String) async throws -> OpenInvitation {
        let missing = StoreError.invitationNotFound(id)
        guard OpenInvitation.isPlausible(id: id) else { throw missing }
        let now = clock()
        guard let invitation = try await store.read({ try await InvitationIndex.read($0, now: now) }).first(where: { $0.id == id }) else { throw missing }
        do {
            try await authorize(invitation.space.map { .manageSpace($0) } ?? .administer)
        } catch is Authorization.Refused {
            throw missing
        } catch StoreError.spaceNotFound {
            throw missing
        }
        try await transaction { tx in
            try await tx.setValue(nil, for: .entry(keyHash: invitation.keyHash))
            try await InvitationIndex.remove(keyHash: invitation.keyHash, tx)
        }
        return invitation
    }

    /// What the link `secret` opens, while it is unused and unexpired. Asked
    /// before anyone is signed in: as the server.
    public func oneTimeLink(_ secret: String) async throws -> OneTimeLink? {
        guard OneTimeLink.isPlausible(secret) else { return nil }
        let now = clock()
        return try await store.read { reader in
            guard let link = try await Self.link(secret, reader, now: now) else { return nil }
            if case .invitation(let space, _) = link.purpose, try await !Self.makerMayStillInvite(link, into: space, reader) { return nil }
            return link
        }
    }

    static func link(_ secret: String, _ reader: any StoreReader, now: Date) async throws -> OneTimeLink? {
        guard let kept = try await reader.value(for: OneTimeLink.key(secret)), kept.isLive(at: now) else { return nil }
        return try? JSONDecoder().decode(OneTimeLink.self, from: kept.bytes)
    }

    /// Makes the account an invitation offers, as its new person, and uses
    /// the link up: in one transaction, so two people cannot both use it.
    public func acceptInvitation(_ secret: String, login: String, displayName: String?, password: String,
                                 cost: UInt8 = PasswordPolicy.cost) async throws -> SignedInPerson {
        let hash = try await newPerson(login: login, password: password, cost: cost)
        return try await transaction { tx in
            guard OneTimeLink.isPlausible(secret), let link = try await Self.link(secret, tx, now: tx.now),
                  case .invitation(let space, let role) = link.purpose,
                  try await Self.makerMayStillInvite(link, into: space, tx) else { throw StoreError.invalid("this invitation has been used or has expired") }
            try await tx.setValue(nil, for: OneTimeLink.key(secret))
            try await InvitationIndex.remove(keyHash: OneTimeLink.keyHash(secret), tx)
            let person = try await Self.savePerson(login: login, displayName: displayName, hash: hash, tx)
            if let space, let role {
                let spaceId = try await Self.requireSpace(space, tx).savedID()
                try await tx.setMember(spaceId: spaceId, personId: try person.savedID(),
                                       to: MemberRecord(spaceId: spaceId, personId: try person.savedID(), role: role, joinedAt: tx.now))
            }
            return SignedInPerson(person, id: try person.savedID())
        }
    }

    /// Whether the person who made an invitation could make it now: not
    /// disabled, and an administrator, or (for a space) still its owner. A
    /// person's invitations end with their standing: disabled, removed, or no
    /// longer an owner of the space.
    static func makerMayStillInvite(_ link: OneTimeLink, into space: String?, _ reader: any StoreReader) async throws -> Bool {
        guard let id = link.madeByPerson else { return true }
        guard let maker = try await reader.personRows(.id(id)).first, maker.disabledAt == nil else { return false }
        if maker.isAdmin { return true }
        guard let space, let spaceId = try await reader.spaceRows(.slug(space)).first?.id else { return false }
        return try await reader.memberRows(spaceId: spaceId, personId: id).first?.role == .owner
    }

    /// Sets the password a reset link is for, ends every session of that
    /// person, revokes their API tokens and app passwords (a reset is asked for
    /// when the password may be someone else's: nothing made with it goes on
    /// working), and uses the link up.
    public func resetPassword(_ secret: String, to password: String, cost: UInt8 = PasswordPolicy.cost) async throws -> SignedInPerson {
        try PasswordPolicy.check(password)
        let hash = try await passwords.hash(password, cost: cost)
        return try await transaction { tx in
            guard OneTimeLink.isPlausible(secret), let link = try await Self.link(secret, tx, now: tx.now),
                  case .reset(let id, _) = link.purpose, var person = try await tx.personRows(.id(id)).first else {
                throw StoreError.invalid("this reset link has been used or has expired")
            }
            try await tx.setValue(nil, for: OneTimeLink.key(secret))
            person.passwordHash = hash
            person.sessionEpoch = Secret.generate(bytes: 16)
            person = try await tx.save(person)
            try await Self.revokeTokens(of: id, tx)
            return SignedInPerson(person, id: id)
        }
    }

    /// Whether anyone may make an account at `/app/signup`: the setting an
    /// administrator turns on, or the server's `--open-signup`.
    public func isSignupOpen(serverAllows: Bool) async throws -> Bool {
        if serverAllows { return true }
        return try await store.read { try await $0.setting(.openSignup) } == "on"
    }

    /// Opens or closes sign-up (an administrator).
    public func setSignupOpen(_ open: Bool) async throws {
        try await authorize(.administer)
        try await transaction { tx in try await tx.setSetting(.openSignup, to: open ? "on" : nil) }
    }

    /// Makes an account at `/app/signup`, while sign-up is open: a person
    /// with no space and no administration, who makes their own feeds.
    public func signUp(login: String, displayName: String?, password: String, serverAllows: Bool,
                       cost: UInt8 = PasswordPolicy.cost) async throws -> SignedInPerson {
        guard try await isSignupOpen(serverAllows: serverAllows) else { throw StoreError.invalid("sign-up is closed: ask an administrator for an invitation") }
        let hash = try await newPerson(login: login, password: password, cost: cost)
        return try await transaction { tx in
            let person = try await Self.savePerson(login: login, displayName: displayName, hash: hash, tx)
            return SignedInPerson(person, id: try person.savedID())
        }
    }

    /// A new person (an administrator when `isAdmin`); refused when the login is taken.
    static func savePerson(login: String, displayName: String?, hash: String, isAdmin: Bool = false, _ tx: any StoreTransaction) async throws -> PersonRecord {
        guard try await tx.personRows(.login(login)).isEmpty else { throw StoreError.loginTaken(login) }
        let name = line(displayName ?? "")
        return try await tx.save(PersonRecord(login: login, displayName: name.isEmpty ? login : name, passwordHash: hash, isAdmin: isAdmin,
                                                    createdAt: tx.now))
    }
}
