import Hummingbird

/// Refuses admin requests without the bearer token (401, with WWW-Authenticate).
package struct AdminAuthMiddleware: RouterMiddleware {
    package typealias Context = ServerContext
    package let token: AdminToken

    package init(token: AdminToken) {
        self.token = token
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard token.accepts(request.headers[.authorization]) else {
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"tminus admin\""],
                            message: "missing or wrong admin token (send Authorization: Bearer <token>)")
        }
        return try await next(request, context)
    }
}
