@preconcurrency import Crypto
import CountdownStore
import Foundation
import Logging
import Synchronization

/// Seals the logins entered in the web app before they reach the database
/// (AES-256-GCM, a random nonce each time), under a key that is kept in a
/// file outside it: a copied database, a backup or a stolen disk image of the
/// database alone holds no password. The key file is `--secrets-key-file`, or
/// `tminus-secrets-key` made with mode 0600 beside a SQLite database at first
/// start. Replicas on PostgreSQL share one key file, which must be given.
struct SecretBox: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let key: SymmetricKey
    /// Where the key was read from (for logs; never the key).
    let file: String

    /// "v1." and the base64 of nonce, ciphertext and tag.
    func seal(_ secret: String) throws -> String {
        let box = try AES.GCM.seal(Data(secret.utf8), using: key)
        guard let combined = box.combined else { throw Failure(description: "cannot seal the login") }
        return "v1." + combined.base64EncodedString()
    }

    func open(_ sealed: String) throws -> String {
        guard sealed.hasPrefix("v1."), let data = Data(base64Encoded: String(sealed.dropFirst(3))) else {
            throw Failure(description: "the saved login is not one this server sealed")
        }
        do {
            let opened = try AES.GCM.open(try AES.GCM.SealedBox(combined: data), using: key)
            return String(decoding: opened, as: UTF8.self)
        } catch {
            throw Failure(description: "the saved login cannot be opened with the key in \(file) (another key sealed it?)")
        }
    }

    /// The key in `file`, nil when there is no such file.
    static func read(_ file: String, logger: Logger) throws -> SecretBox? {
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
    static func create(_ file: String, logger: Logger) throws -> SecretBox {
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
final class SecretKeeper: Sendable {
    /// Where the key is (nil: PostgreSQL without `--secrets-key-file`, so logins cannot be saved).
    let file: String?
    /// True when the file was given (`--secrets-key-file`): it must exist, never made here.
    let configured: Bool
    private let logger: Logger
    private let box: Mutex<SecretBox?>

    init(configured: String?, database: DatabaseLocation, logger: Logger) throws {
        file = configured ?? database.path.map { URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("tminus-secrets-key").path }
        self.configured = configured != nil
        self.logger = logger
        let existing = try file.flatMap { try SecretBox.read($0, logger: logger) }
        if configured != nil, existing == nil { throw ServerError.configuration("\(configured!): secrets key file not found") }
        box = Mutex(existing)
    }

    /// The key, if there is one yet (to open saved logins).
    var current: SecretBox? { box.withLock { $0 } }

    /// The key, made now if there is none (to seal a login).
    func forSealing() throws -> SecretBox {
        try box.withLock { box in
            if let box { return box }
            guard let file else {
                throw SecretBox.Failure(description: "this server keeps no key for logins: start it with --secrets-key-file (replicas share one key file)")
            }
            let made = try SecretBox.create(file, logger: logger)
            box = made
            return made
        }
    }
}
