import Hummingbird
import Logging

/// Logs each request at debug level (info keeps starts, reloads, imports and
/// errors), without its secrets: the token in `/t/{token}/…` becomes `***`,
/// the query string is left out, and no header is logged, so neither a feed
/// token nor the admin bearer token reaches a log file.
///
/// It replaces Hummingbird's `LogRequestsMiddleware(.info)`, which logged full
/// URIs, tokens included, at the default level.
package struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {

    package init() {
    }
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context, status: response.status.code, started)
            return response
        } catch let error as any HTTPResponseError {
            log(request, context, status: error.status.code, started)
            throw error
        } catch {
            log(request, context, status: 500, started)
            throw error
        }
    }

    private func log(_ request: Request, _ context: Context, status: Int, _ started: ContinuousClock.Instant) {
        let level: Logger.Level = status >= 500 ? .error : .debug
        context.logger.log(level: level, "request", metadata: [
            "method": "\(request.method.rawValue)", "path": "\(Self.redacted(request.uri.path))", "status": "\(status)",
            "duration": "\(ContinuousClock.now - started)",
        ])
    }

    /// `/t/SECRET/feeds/x.ics` → `/t/***/feeds/x.ics`, and the web app's
    /// one-time links (`/app/setup/SECRET`, `/app/join/…`, `/app/reset/…`) → `/app/setup/***`.
    package static func redacted(_ path: String) -> String {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for index in parts.indices.dropLast() where ["t", "setup", "join", "reset"].contains(parts[index]) { parts[index + 1] = "***" }
        return parts.joined(separator: "/")
    }

}
