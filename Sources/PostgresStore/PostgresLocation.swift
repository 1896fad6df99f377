import CountdownStore
import Foundation
import PostgresNIO

/// A `postgres://` URL as `--db` takes it:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, or a Unix socket with
/// `postgres://USER@/DATABASE?host=/run/postgresql` (libpq's spelling). The
/// password may instead come from `PGPASSWORD`, so that it stays out of `ps`.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String?
    /// A host name, or nil with `socketDirectory`.
    public var host: String?
    public var port: Int
    public var socketDirectory: String?
    public var database: String

    public static func isPostgres(_ value: String) -> Bool {
        value.hasPrefix("postgres://") || value.hasPrefix("postgresql://")
    }

    public init(_ value: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard Self.isPostgres(value), let url = URLComponents(string: value) else {
            throw StoreError.invalid("'\(Self.redacted(value))' is not a postgres:// URL (postgres://USER@HOST[:PORT]/DATABASE)")
        }
        guard let user = url.user, !user.isEmpty else {
            throw StoreError.invalid("'\(Self.redacted(value))' names no user: postgres://USER@HOST/DATABASE")
        }
        let database = String(url.path.drop { $0 == "/" })
        guard !database.isEmpty else {
            throw StoreError.invalid("'\(Self.redacted(value))' names no database: postgres://USER@HOST/DATABASE")
        }
        self.user = user.removingPercentEncoding ?? user
        password = url.password?.removingPercentEncoding ?? environment["PGPASSWORD"]
        self.database = database
        port = url.port ?? url.queryItems?.first { $0.name == "port" }?.value.flatMap(Int.init) ?? 5432
        socketDirectory = url.queryItems?.first { $0.name == "host" && ($0.value ?? "").hasPrefix("/") }?.value
        host = socketDirectory == nil ? (url.host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost") : nil
    }

    /// The URL without its password: what logs and health show.
    public var description: String {
        if let socketDirectory { return "postgres://\(user)@/\(database)?host=\(socketDirectory)" + (port == 5432 ? "" : "&port=\(port)") }
        return "postgres://\(user)@\(host ?? "localhost"):\(port)/\(database)"
    }

    /// The client configuration. Loopback and sockets go without TLS; anything
    /// else prefers it, as libpq does by default.
    var configuration: PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketDirectory {
            configuration = .init(unixSocketPath: socketDirectory + "/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            let local = ["localhost", "127.0.0.1", "::1"].contains(host ?? "localhost")
            configuration = .init(host: host ?? "localhost", port: port, username: user, password: password, database: database,
                                  tls: local ? .disable : .prefer(.makeClientConfiguration()))
        }
        configuration.options.maximumConnections = 16
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    static func redacted(_ value: String) -> String {
        guard var url = URLComponents(string: value), url.password != nil else { return value }
        url.password = "***"
        return url.string ?? value
    }
}

extension PostgresLocation {
    /// The client configuration (for tools and tests that talk to the server directly).
    public var configurationForTests: PostgresClient.Configuration { configuration }

    /// The URL again (with the password, if any: for tests only).
    public var urlForTests: String {
        let auth = password.map { user + ":" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) } ?? user
        if let socketDirectory { return "postgres://\(auth)@/\(database)?host=\(socketDirectory)&port=\(port)" }
        return "postgres://\(auth)@\(host ?? "localhost"):\(port)/\(database)"
    }
}
