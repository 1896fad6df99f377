import HTTPSupport
import Hummingbird
import Services

/// Lets in the admin token's bearer (the operator, acting as the first
/// administrator) and a person's API token's (their requests then run as that
/// person, `RequestPrincipal`); refuses the rest (401, with WWW-Authenticate).
package struct AdminAuthMiddleware: RouterMiddleware {
    package typealias Context = ServerContext
    package let token: AdminToken
    /// Looks a person's token up (as the server itself); nil where only the
    /// operator's token is let in (`/metrics`).
    package let people: CountdownService?
    /// Says once in the log that scripts should move to people's tokens.
    package let notice: AdminTokenNotice?

    package init(token: AdminToken, people: CountdownService?, notice: AdminTokenNotice? = nil) {
        self.token = token
        self.people = people?.acting(as: .system)
        self.notice = notice
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let header = request.headers[.authorization]
        if token.accepts(header) {
            notice?.used(for: request.uri.path)
            return try await next(request, context)
        }
        if let people, let secret = Self.bearer(header), secret.hasPrefix("tmp_"), let person = try await people.person(forToken: secret) {
            return try await RequestPrincipal.$current.withValue(.person(person)) { try await next(request, context) }
        }
        throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"tminus admin\""],
                        message: "missing or wrong token (send Authorization: Bearer <token>: the admin token, or a person's from `tminus users token`)")
    }

    /// The secret of `Authorization: Bearer <secret>`.
    static func bearer(_ header: String?) -> String? {
        guard let header, header.count <= 512, header.lowercased().hasPrefix("bearer ") else { return nil }
        let secret = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return secret.isEmpty ? nil : secret
    }
}
