import Hummingbird

/// Refuses admin requests without the bearer token (401, with WWW-Authenticate).
struct AdminAuthMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let token: AdminToken

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard token.accepts(request.headers[.authorization]) else {
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"tminus admin\""],
                            message: "missing or wrong admin token (send Authorization: Bearer <token>)")
        }
        return try await next(request, context)
    }
}
