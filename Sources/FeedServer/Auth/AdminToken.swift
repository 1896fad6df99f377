import CountdownStore
import Foundation
import Logging
import Services
import StoreFactory

/// The admin API's bearer token. Read from `--admin-token-file`, or generated at
/// first start and written next to the SQLite file with mode 0600. Only its
/// SHA-256 is kept (in the database and in memory); requests are compared in constant time.
///
/// On PostgreSQL the hash is shared by every replica: a replica started
/// without `--admin-token-file` keeps the hash the database holds (a token it
/// generated would lock the others out), and generates one only for an empty
/// database, into `./tminus-admin-token`.
package struct AdminToken: Sendable {
    package let hash: String
    package let file: String

    package static func setUp(service: CountdownService, configuredFile: String?, database: DatabaseLocation, logger: Logger) async throws -> AdminToken {
        let directory = database.path.map { URL(fileURLWithPath: $0).deletingLastPathComponent() } ?? URL(fileURLWithPath: ".")
        let file = configuredFile ?? directory.appendingPathComponent("tminus-admin-token").path
        if configuredFile == nil, database.path == nil, let shared = try await service.setting(.adminTokenHash) {
            logger.notice("admin API: the token is the one the database holds (pass --admin-token-file to set another)")
            return AdminToken(hash: shared, file: "(in the database)")
        }
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
        if let path = database.path, PrivateFile.isReadableByOthers(path) {
            logger.warning("the database can be read by other users; run chmod 600 on it and its -wal and -shm files",
                           metadata: ["file": "\(path)", "mode": "\(PrivateFile.mode(path))"])
        }
        let hash = Secret.hash(token)
        try await service.setSetting(.adminTokenHash, to: hash)
        return AdminToken(hash: hash, file: file)
    }

    /// Checks an `Authorization: Bearer …` header value.
    package func accepts(_ authorization: String?) -> Bool {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else { return false }
        let presented = String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        return Secret.constantTimeEquals(Secret.hash(presented), hash)
    }
}
