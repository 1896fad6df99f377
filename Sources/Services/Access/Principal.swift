import Countdowns

/// Who asks for a use case. Every use case of `CountdownService` runs as one
/// (`CountdownService.acting(as:)`), and `Authorization` decides in one place
/// what each may do: the seam where people and roles (issue #37) come in
/// without touching a handler.
public enum Principal: Sendable, Equatable, CustomStringConvertible {
    /// Nobody yet: a web-app page before sign-in. May do nothing (the pages
    /// it may see, sign-in and setup, ask as the server for what they need).
    case anonymous
    /// Whoever holds the admin API's bearer token (an operator, a script).
    case adminToken
    /// The holder of a feed's token link: reads that feed as its visibility allows, changes nothing.
    case feedToken(feed: String, visibility: Visibility)
    /// The server itself (feed files, source refreshes, notices).
    case system
    /// Whoever runs `tminus` on the store's machine (it may open the database file).
    case commandLine
    /// A person (issue #37), signed in or with one of their API tokens.
    case person(PersonAccess)

    public var description: String {
        switch self {
        case .anonymous: "someone not signed in"
        case .adminToken: "the admin token"
        case .feedToken(let feed, let visibility): "a \(visibility.rawValue) token of feed '\(feed)'"
        case .system: "the server"
        case .commandLine: "the command line"
        case .person(let person): "\(person.login)\(person.readOnly ? " (read-only token)" : "")"
        }
    }
}

extension Principal {
    /// Who did a change, as a countdown keeps it (`createdBy`, `changedBy`).
    public var actorLabel: String {
        switch self {
        case .anonymous: "someone not signed in"
        case .adminToken: "admin token"
        case .feedToken(let feed, _): "a link to \(feed)"
        case .system: "tminus"
        case .commandLine: "command line"
        case .person(let person): person.app.map { "\(person.login) via \($0)" } ?? person.login
        }
    }
}
