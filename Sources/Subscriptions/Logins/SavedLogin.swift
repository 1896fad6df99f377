import Foundation

/// A login entered in the web app for an address it keeps fetching: a user
/// name and password (HTTP Basic) or a token (Bearer). Stored only sealed
/// (`SecretBox`), as JSON inside the seal; opened when the subscriptions are read.
package struct SavedLogin: Codable, Sendable, Equatable {
    package var username: String?
    package var password: String?
    package var token: String?

    /// The form's fields: nil when all are empty; an error names what is missing or wrong.
    package static func from(username: String?, password: String?, token: String?) throws -> SavedLogin? {
        let username = username?.trimmingCharacters(in: .whitespaces).nonEmptyText
        let password = password?.nonEmptyText
        let token = token?.trimmingCharacters(in: .whitespaces).nonEmptyText
        guard username != nil || password != nil || token != nil else { return nil }
        if token != nil, username != nil || password != nil {
            throw SecretBox.Failure(description: "give either a user name and password or a token, not both")
        }
        if token == nil, username == nil || password == nil { throw SecretBox.Failure(description: "a login needs both a user name and a password") }
        for value in [username, password, token].compactMap({ $0 }) where value.count > 4_096 || value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw SecretBox.Failure(description: "a user name, password or token must be one line of at most 4,096 characters")
        }
        if let username, username.contains(":") { throw SecretBox.Failure(description: "a user name cannot contain ':' (HTTP Basic)") }
        return SavedLogin(username: username, password: password, token: token)
    }

    package var credentials: SourceCredentials {
        var credentials = SourceCredentials()
        if let username, let password { credentials.basic = .init(username: username, password: .saved(password)) }
        if let token { credentials.bearer = .saved(token) }
        return credentials
    }

    package func sealed(with box: SecretBox, for binding: SecretBox.Binding) throws -> String {
        try box.seal(String(decoding: try JSONEncoder().encode(self), as: UTF8.self), for: binding)
    }

    /// The credentials of a sealed login; when it cannot be opened (the key is
    /// missing or another), credentials whose reading fails with that reason,
    /// so the source's error says so instead of "HTTP 401".
    package static func credentials(sealed: String, for binding: SecretBox.Binding, secrets: SecretKeeper?) -> SourceCredentials {
        do {
            if let problem = secrets?.problem { throw SecretBox.Failure(description: "the saved login cannot be opened: \(problem)") }
            guard let box = secrets?.current else { throw SecretBox.Failure(description: "the server has no key to open the saved login (--secrets-key-file)") }
            return try JSONDecoder().decode(SavedLogin.self, from: Data(try box.open(sealed, for: binding).utf8)).credentials
        } catch {
            var credentials = SourceCredentials()
            credentials.bearer = .unopenable("\(error)")
            return credentials
        }
    }
}

private extension String {
    var nonEmptyText: String? { isEmpty ? nil : self }
}
