import CountdownStore
import Foundation
import Logging

/// The admin API's bearer token. Read from `--admin-token-file`, or generated at
/// first start and written next to the database with mode 0600. Only its
/// SHA-256 is kept (in the database and in memory); requests are compared in constant time.
struct AdminToken: Sendable {
    static let settingKey = "adminTokenHash"
    let hash: String
    let file: String

    static func setUp(store: CountdownStore, configuredFile: String?, databasePath: String, logger: Logger) throws -> AdminToken {
        let file = configuredFile ?? URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent("tminus-admin-token").path
        let token: String
        if let data = FileManager.default.contents(atPath: file) {
            token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard token.count >= 16 else { throw ServerError.configuration("\(file): the admin token must be at least 16 characters") }
        } else if configuredFile != nil {
            throw ServerError.configuration("\(file): admin token file not found")
        } else {
            token = Secret.generate(bytes: 32)
            do { try PrivateFile.create(at: file, contents: Data((token + "\n").utf8)) } catch {
                throw ServerError.configuration("cannot write the admin token: \(error)")
            }
            logger.notice("generated an admin token", metadata: ["file": "\(file)"])
        }
        if PrivateFile.isReadableByOthers(file) {
            logger.warning("the admin token file can be read by other users; run chmod 600 on it",
                           metadata: ["file": "\(file)", "mode": "\(PrivateFile.mode(file))"])
        }
        if PrivateFile.isReadableByOthers(databasePath) {
            logger.warning("the database can be read by other users; run chmod 600 on it and its -wal and -shm files",
                           metadata: ["file": "\(databasePath)", "mode": "\(PrivateFile.mode(databasePath))"])
        }
        let hash = Secret.hash(token)
        try store.setSetting(settingKey, hash)
        return AdminToken(hash: hash, file: file)
    }

    /// Checks an `Authorization: Bearer …` header value.
    func accepts(_ authorization: String?) -> Bool {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else { return false }
        let presented = String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        return Secret.constantTimeEquals(Secret.hash(presented), hash)
    }
}

enum ServerError: Error, CustomStringConvertible {
    case configuration(String)
    var description: String {
        switch self { case .configuration(let message): message }
    }
}
