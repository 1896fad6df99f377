import CountdownStore
import Foundation
import Logging
import Services
import StoreFactory
import Synchronization
@preconcurrency import Crypto

/// Seals the logins entered in the web app before they reach the database
/// (AES-256-GCM, a random nonce each time), under a key that is kept in a
/// file outside it: a copied database, a backup or a stolen disk image of the
/// database alone holds no password. The key file is `--secrets-key-file`, or
/// `tminus-secrets-key` made with mode 0600 beside a SQLite database at first
/// start. Replicas on PostgreSQL share one key file, which must be given.
package struct SecretBox: Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package let key: SymmetricKey
    /// Where the key was read from (for logs; never the key).
    package let file: String

    package init(key: SymmetricKey, file: String) {
        self.key = key
        self.file = file
    }

    /// What a sealed secret belongs to: a login, the feed and the source's
    /// address; a second factor, its person. It is the seal's associated data,
    /// so whoever can write the database but has no key cannot move a kept
    /// login to a source of their own (their server would receive it), or a
    /// second factor to another person: the seal no longer opens there.
    package struct Binding: Sendable, Equatable {
        package var parts: [String]
        /// What a seal made for something else says.
        package var mismatch: String

        package init(feed: String, location: String) {
            parts = ["tminus-login", feed, location]
            mismatch = "the saved login was sealed for another source, not \(location) in feed '\(feed)': it is not sent"
        }

        package init(parts: [String]) {
            self.parts = parts
            mismatch = "the secret was sealed for something else, not \(parts.joined(separator: " ")): it is not used"
        }

        package var associatedData: Data { Data(parts.joined(separator: "\u{0}").utf8) }
        /// Eight bytes of its digest, in the clear beside the seal: tells "sealed
        /// for another source" apart from "another key" (the seal checks the rest).
        package var tag: String { String(SHA256Hex.of(String(decoding: associatedData, as: UTF8.self)).prefix(16)) }
    }

    /// The format written: "v2.", the binding's tag, ".", the base64 of nonce,
    /// ciphertext and GCM tag. "v1." (no associated data) is only read to
    /// re-seal it (`openUnbound`).
    package func seal(_ secret: String, for binding: Binding) throws -> String {
        let box = try AES.GCM.seal(Data(secret.utf8), using: key, authenticating: binding.associatedData)
        guard let combined = box.combined else { throw Failure(description: "cannot seal the login") }
        return "v2.\(binding.tag)." + combined.base64EncodedString()
    }

    package func open(_ sealed: String, for binding: Binding) throws -> String {
        let parts = sealed.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        if sealed.hasPrefix("v1.") {
            throw Failure(description: "the saved login is in an older format that a server with its key re-seals at start; save the login again")
        }
        guard parts.count == 3, parts[0] == "v2", let data = Data(base64Encoded: String(parts[2])) else {
            throw Failure(description: "the saved login is not one this server sealed")
        }
        guard parts[1] == binding.tag else {
            throw Failure(description: binding.mismatch)
        }
        do {
            let opened = try AES.GCM.open(try AES.GCM.SealedBox(combined: data), using: key, authenticating: binding.associatedData)
            return String(decoding: opened, as: UTF8.self)
        } catch {
            throw Failure(description: "the saved login cannot be opened with the key in \(file) (another key sealed it, or it was altered)")
        }
    }

    /// A login in the first format, which bound nothing: read once, at start,
    /// to seal it again with its binding (`SecretKeeper.resealUnbound`).
    package func openUnbound(_ sealed: String) throws -> String {
        guard sealed.hasPrefix("v1."), let data = Data(base64Encoded: String(sealed.dropFirst(3))) else {
            throw Failure(description: "the saved login is not in the first format")
        }
        do {
            return String(decoding: try AES.GCM.open(try AES.GCM.SealedBox(combined: data), using: key), as: UTF8.self)
        } catch {
            throw Failure(description: "the saved login cannot be opened with the key in \(file) (another key sealed it?)")
        }
    }

    /// The key in `file`, nil when there is no such file.
    package static func read(_ file: String, logger: Logger) throws -> SecretBox? {
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        guard let key = Data(base64Encoded: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)), key.count == 32 else {
            throw ServerError.configuration("\(file): the secrets key must be 32 bytes in base64 (make one with: head -c 32 /dev/urandom | base64)")
        }
        if PrivateFile.isReadableByOthers(file) {
            logger.warning("the secrets key file can be read by other users; run chmod 600 on it", metadata: ["file": "\(file)"])
        }
        return SecretBox(key: SymmetricKey(data: key), file: file)
    }

    /// A new key, written to `file` with mode 0600.
    package static func create(_ file: String, logger: Logger) throws -> SecretBox {
        let key = SymmetricKey(size: .bits256)
        let text = key.withUnsafeBytes { Data($0).base64EncodedString() }
        do { try PrivateFile.create(at: file, contents: Data((text + "\n").utf8)) } catch {
            throw ServerError.configuration("\(file): cannot write the secrets key: \(error)")
        }
        logger.notice("generated a key for logins saved in the web app; back it up apart from the database", metadata: ["file": "\(file)"])
        return SecretBox(key: key, file: file)
    }
}

/// The server's `SecretBox`, made when the first login is saved: a server
/// whose owner never saves one writes no key file.
package final class SecretKeeper: Sendable {
    /// Where the key is (nil: PostgreSQL without `--secrets-key-file`, so logins cannot be saved).
    package let file: String?
    /// True when the file was given (`--secrets-key-file`): it must exist, never made here.
    package let configured: Bool
    private let logger: Logger
    private let box: Mutex<SecretBox?>

    /// Why the key file cannot be used (unreadable, not a key): kept logins
    /// fail with this, and no new one is kept, but the server serves on.
    package let problem: String?

    package init(configured: String?, database: DatabaseLocation, logger: Logger) throws {
        file = configured ?? database.path.map { URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("tminus-secrets-key").path }
        self.configured = configured != nil
        self.logger = logger
        var existing: SecretBox?
        var problem: String?
        do {
            existing = try file.flatMap { try SecretBox.read($0, logger: logger) }
        } catch {
            // A damaged key must not take the feeds down: only what it opens fails.
            problem = "\(error)"
            logger.error("the secrets key cannot be used: logins saved in the web app fail until it is restored", metadata: ["problem": "\(error)"])
        }
        if let configured, existing == nil, problem == nil { throw ServerError.configuration("\(configured): secrets key file not found") }
        box = Mutex(existing)
        self.problem = problem
    }

    /// The key, if there is one yet (to open saved logins).
    package var current: SecretBox? { box.withLock { $0 } }

    /// The key, made now if there is none (to seal a login). A key file that
    /// is there but unusable is never replaced: the logins it sealed would be lost.
    package func forSealing() throws -> SecretBox {
        try box.withLock { box in
            if let box { return box }
            if let problem { throw SecretBox.Failure(description: problem) }
            guard let file else {
                throw SecretBox.Failure(description: "this server keeps no key for logins: start it with --secrets-key-file (replicas share one key file)")
            }
            let made = try SecretBox.create(file, logger: logger)
            box = made
            return made
        }
    }
}

extension SecretKeeper {
    /// Seals again, with their binding, the kept logins of the first format
    /// (which bound nothing), all in one transaction. Runs at start, when the
    /// server has its key: migrations run without it. Those it cannot open
    /// are left, and fail as source errors that say why.
    package func resealUnbound(_ service: CountdownService) async throws {
        guard let box = current else { return }
        let unbound = try await service.subscriptions().filter { $0.login?.hasPrefix("v1.") == true }
        guard !unbound.isEmpty else { return }
        var resealed: [SourceSubscription] = []
        for var subscription in unbound {
            guard let login = subscription.login, let secret = try? box.openUnbound(login) else {
                logger.warning("a saved login in the first format cannot be opened with this key; it is left as it is", metadata: [
                    "feed": "\(subscription.feed)", "source": "\(subscription.location)",
                ])
                continue
            }
            subscription.login = try box.seal(secret, for: .init(feed: subscription.feed, location: subscription.location))
            resealed.append(subscription)
        }
        try await service.replaceSealedLogins(resealed)
        logger.notice("saved logins sealed again, bound to their feed and source", metadata: ["logins": "\(resealed.count)"])
    }
}

/// A person's second factor is sealed as logins are, under the same key.
extension SecretKeeper: SecretSealing {
    package func seal(_ secret: String, binding: [String]) throws -> String {
        try forSealing().seal(secret, for: SecretBox.Binding(parts: binding))
    }

    package func open(_ sealed: String, binding: [String]) throws -> String {
        guard let box = current else { throw SecretBox.Failure(description: problem ?? "this server has no secrets key yet") }
        return try box.open(sealed, for: SecretBox.Binding(parts: binding))
    }
}
