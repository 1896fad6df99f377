import HTTPSupport
import Hummingbird

/// Counts every request for `/metrics` by its route pattern, method and
/// status, and times it (`ServerMetrics`). The pattern is read after the
/// router matched it, so a path's tokens and slugs never become labels.
package struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    package let metrics: ServerMetrics

    package init(metrics: ServerMetrics) {
        self.metrics = metrics
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context, status: Int(response.status.code), started)
            return response
        } catch let error as any HTTPResponseError {
            record(request, context, status: Int(error.status.code), started)
            throw error
        } catch {
            record(request, context, status: 500, started)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, _ started: ContinuousClock.Instant) {
        metrics.request(route: context.endpointPath ?? "NotFound", method: request.method.rawValue, status: status,
                        duration: ContinuousClock.now - started)
    }
}
