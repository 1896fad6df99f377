import Foundation

/// An address someone asks a feed to import, and perhaps to keep fetching
/// (the web app's import page, `POST /api/feeds/{slug}/sources`): checked,
/// fetched once with its login, and the login sealed when it is to be kept.
/// One home for these steps; each caller words the refusals its own way (a
/// page in the user's language, a JSON error).
package struct RemoteCalendar: Sendable {
    package enum Refusal: Error, CustomStringConvertible {
        /// Not an http(s) address.
        case notHTTP
        /// A user name or password written into the address, where logs and pages would show it.
        case loginInAddress
        /// The login fields do not make a login (`SavedLogin.from`).
        case badLogin(String)
        /// The login cannot be kept sealed (no key, or it cannot be made).
        case loginNotKept(String)
        /// A 304 to a request without validators.
        case sentNothing
        case fetchFailed(CalendarFetcher.Failure)

        package var description: String {
            switch self {
            case .notHTTP: "url must be an http(s) URL"
            case .loginInAddress: "url holds a user name or password: send them as username and password (or token)"
            case .badLogin(let reason): reason
            case .loginNotKept(let reason): "the login cannot be kept: \(reason)"
            case .sentNothing: "the address sent nothing"
            case .fetchFailed(let failure): failure.description
            }
        }
    }

    package let url: String
    package let login: SavedLogin?

    /// The address and the login fields, checked.
    package init(url: String, username: String?, password: String?, token: String?) throws(Refusal) {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw .notHTTP
        }
        guard parsed.user == nil, parsed.password == nil else { throw .loginInAddress }
        do { login = try SavedLogin.from(username: username, password: password, token: token) } catch { throw .badLogin("\(error)") }
        self.url = url
    }

    /// The calendar's bytes, fetched now with the login.
    package func fetch(with fetcher: CalendarFetcher) async throws(Refusal) -> [UInt8] {
        do {
            guard case .fetched(let bytes, _, _) = try await fetcher.fetch(url, credentials: login?.credentials) else { throw Refusal.sentNothing }
            return bytes
        } catch let refusal as Refusal {
            throw refusal
        } catch let failure as CalendarFetcher.Failure {
            throw .fetchFailed(failure)
        } catch {
            throw .fetchFailed(CalendarFetcher.Failure(description: "\(error)"))
        }
    }

    /// The login sealed to be stored with the subscription; nil without one.
    /// It opens only for this address in `feed`.
    package func sealedLogin(_ secrets: SecretKeeper?, feed: String) throws(Refusal) -> String? {
        guard let login else { return nil }
        do {
            guard let secrets else { throw SecretBox.Failure(description: "this server keeps no logins (--secrets-key-file)") }
            return try login.sealed(with: try secrets.forSealing(), for: .init(feed: feed, location: url))
        } catch {
            throw .loginNotKept("\(error)")
        }
    }
}
