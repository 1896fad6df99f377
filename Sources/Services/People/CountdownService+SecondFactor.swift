import CountdownStore
import Foundation
import HummingbirdOTP

/// A person's second factor: enrolled by themselves (a code from their app
/// confirms it), asked for after the password at every sign-in, and turned
/// off by themselves or, for one who lost their phone and codes, by an administrator.
extension CountdownService {
    /// A fresh secret for the signed-in person, not kept yet: their app reads
    /// it from the QR code, and `enableSecondFactor` keeps it once a code
    /// from the app matches. `issuer` names the server in the app. With
    /// `resuming` (the pending seal of a form whose code was wrong), the same
    /// secret again, since the app already has it.
    public func beginSecondFactor(issuer: String, sealer: any SecretSealing, resuming pending: String? = nil) async throws -> SecondFactor.Enrollment {
        let me = try await me()
        let id = try me.savedID()
        let secret = pending.flatMap { try? sealer.open($0, binding: SecondFactor.binding(id, pending: true)) } ?? SecondFactor.newSecret()
        let address = TOTP(secret: secret).createAuthenticatorURL(label: "\(issuer):\(me.login)", issuer: issuer)
        let base32 = URLComponents(string: address)?.queryItems?.first { $0.name == "secret" }?.value ?? ""
        return SecondFactor.Enrollment(secret: secret, base32: base32, address: address,
                                       pending: try sealer.seal(secret, binding: SecondFactor.binding(id, pending: true)))
    }

    /// Keeps the pending secret when `code` is its current code, and returns
    /// ten recovery codes (shown once; only their hashes are kept). Every
    /// other session of theirs ends: it signed in without the factor.
    public func enableSecondFactor(pending: String, code: String, sealer: any SecretSealing) async throws -> (codes: [String], epoch: String) {
        let me = try await me()
        let id = try me.savedID()
        guard let secret = try? sealer.open(pending, binding: SecondFactor.binding(id, pending: true)) else {
            throw StoreError.invalid("this form is not one this server made for you: start again")
        }
        guard let step = SecondFactor.matchingStep(code, secret: secret, now: clock(), after: nil) else {
            throw StoreError.invalid("that code does not match: check the app's clock, and type the six digits it shows now")
        }
        let sealed = try sealer.seal(secret, binding: SecondFactor.binding(id, pending: false))
        let codes = SecondFactor.newRecoveryCodes()
        let epoch = Secret.generate(bytes: 16)
        try await transaction { tx in
            guard var person = try await tx.personRows(.id(id)).first else { throw StoreError.personNotFound(me.login) }
            person.totpSecret = sealed
            person.totpLastStep = step
            person.recoveryCodes = RecoveryCodeHashes(hashes: codes.map(Secret.hash))
            person.sessionEpoch = epoch
            _ = try await tx.save(person)
        }
        return (codes, epoch)
    }

    /// Turns `login`'s second factor off (themselves, or an administrator for
    /// one who lost their phone and codes); their sessions go on.
    public func removeSecondFactor(login: String) async throws {
        try await authorizeSelf(login)
        try await transaction { tx in
            guard var person = try await tx.personRows(.login(login)).first else { throw StoreError.personNotFound(login) }
            guard person.hasSecondFactor else { return }
            person.totpSecret = nil
            person.totpLastStep = nil
            person.recoveryCodes = nil
            _ = try await tx.save(person)
        }
    }

    /// Whether `code` (from the app, or an unused recovery code) is person
    /// `id`'s second factor now. Asked after the password, before anyone is
    /// signed in: as the server. A code is good once; a recovery code goes.
    public func checkSecondFactor(personId id: Int64, code: String, sealer: any SecretSealing) async throws -> Bool {
        let now = clock()
        return try await transaction { tx in
            guard var person = try await tx.personRows(.id(id)).first, person.disabledAt == nil, let sealed = person.totpSecret else { return false }
            let secret = try sealer.open(sealed, binding: SecondFactor.binding(id, pending: false))
            if let step = SecondFactor.matchingStep(code, secret: secret, now: now, after: person.totpLastStep) {
                person.totpLastStep = step
            } else {
                let hash = Secret.hash(SecondFactor.normalized(code))
                guard var codes = person.recoveryCodes, let index = codes.hashes.firstIndex(where: { Secret.constantTimeEquals($0, hash) }) else {
                    return false
                }
                codes.hashes.remove(at: index)
                person.recoveryCodes = codes
            }
            _ = try await tx.save(person)
            return true
        }
    }
}
