import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Fetches a remote calendar (a URL source, a `{"url"}` import) with
/// conditional GET, within a size limit and one deadline for the whole
/// response, body included, following at most `maxRedirects` redirects.
///
/// Every hop is checked against `AddressPolicy` on the address it resolves to,
/// and the connection goes to exactly that address (`PinnedClient`).
package struct CalendarFetcher: Sendable {
    package enum Outcome: Sendable {
        case fetched(bytes: [UInt8], etag: String?, lastModified: String?)
        case notModified
    }

    /// Why a fetch failed, never with the bytes it received: errors reach
    /// logs, the admin health page and API clients.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        /// True when a rule refused the fetch (address, scheme), not the remote end.
        package var refused = false
    }

    package static let maxRedirects = 5

    package let maxBytes: Int
    /// The deadline for the whole fetch: every hop, headers and body.
    package let timeout: Duration
    /// The deadline in seconds (what a source's lease must outlast).
    package var timeoutSeconds: TimeInterval { Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18 }
    package let policy: AddressPolicy

    package init(maxBytes: Int, timeout: Duration, allowPrivate: Bool) {
        self.maxBytes = maxBytes
        self.timeout = timeout
        policy = AddressPolicy(allowPrivate: allowPrivate)
    }

    /// `credentials` go with the first request and with redirects to the same
    /// host only (`SourceCredentials.mayFollow`).
    package func fetch(_ url: String, etag: String? = nil, lastModified: String? = nil, credentials: SourceCredentials? = nil) async throws -> Outcome {
        let deadline = ContinuousClock.now + timeout
        let headers = try credentials?.requestHeaders() ?? []
        let origin = URL(string: url)
        var location = url
        for _ in 0...Self.maxRedirects {
            let sameSite = origin.flatMap { origin in URL(string: location).map { SourceCredentials.mayFollow(from: origin, to: $0) } } ?? false
            let login: Login = credentials == nil ? .none : sameSite ? .sent(headers) : .notSentHere
            switch try await hop(location, etag: etag, lastModified: lastModified, login: login, deadline: deadline) {
            case .done(let outcome): return outcome
            case .redirect(let next): location = next
            }
        }
        throw Failure(description: "\(url) redirects more than \(Self.maxRedirects) times")
    }

    private enum Hop: Sendable {
        case done(Outcome)
        case redirect(String)
    }

    /// What a hop sends to log in.
    private enum Login: Sendable {
        case none
        /// The source has a login, but this hop is to another host than its own.
        case notSentHere
        case sent([(name: String, value: String)])

        var headers: [(name: String, value: String)] { if case .sent(let headers) = self { headers } else { [] } }
    }

    private func hop(_ location: String, etag: String?, lastModified: String?, login: Login, deadline: ContinuousClock.Instant) async throws -> Hop {
        let pinned: PinnedClient
        do { pinned = try await PinnedClient.connect(to: location, policy: policy) } catch {
            throw Failure(description: error.description, refused: true)
        }
        let (url, client) = (pinned.url, pinned.client)
        var request = HTTPClientRequest(url: location)
        request.headers.add(name: "User-Agent", value: "tminus (calendar countdowns)")
        request.headers.add(name: "Accept", value: "text/calendar, */*;q=0.5")
        if let etag { request.headers.add(name: "If-None-Match", value: etag) }
        if let lastModified { request.headers.add(name: "If-Modified-Since", value: lastModified) }
        for header in login.headers { request.headers.replaceOrAdd(name: header.name, value: header.value) }
        let (maxBytes, prepared, timeout) = (self.maxBytes, request, TimeAmount(self.timeout))
        let result: Result<Hop, any Error>
        do {
            result = .success(try await Self.within(deadline, location) {
                let response = try await client.execute(prepared, timeout: timeout)   // `within` holds the real deadline
                switch response.status.code {
                case 304:
                    return .done(.notModified)
                case 200:
                    let body: ByteBuffer
                    do { body = try await response.body.collect(upTo: maxBytes) } catch is NIOTooManyBytesError {
                        throw Failure(description: "\(location) is larger than \(maxBytes) bytes")
                    }
                    return .done(.fetched(bytes: Array(body.readableBytesView), etag: response.headers.first(name: "ETag"),
                                          lastModified: response.headers.first(name: "Last-Modified")))
                case 301, 302, 303, 307, 308:
                    guard let target = response.headers.first(name: "Location"), let next = URL(string: target, relativeTo: url)?.absoluteString else {
                        throw Failure(description: "\(location) answered HTTP \(response.status.code) without a usable Location")
                    }
                    return .redirect(next)
                case 401, 403:
                    let code = response.status.code
                    switch login {
                    case .sent: throw Failure(description: "\(location) answered HTTP \(code): it refused the login (check this source's auth: and its secret)")
                    case .notSentHere:
                        throw Failure(description: "\(location) answered HTTP \(code) after a redirect to another host, which the source's login is not sent to")
                    case .none: throw Failure(description: "\(location) answered HTTP \(code): it needs a login (give the source auth: in its feed file)")
                    }
                default:
                    throw Failure(description: "\(location) answered HTTP \(response.status.code)")
                }
            })
        } catch let failure as Failure {
            result = .failure(failure)
        } catch {
            result = .failure(Failure(description: "cannot fetch \(location): \(error)"))
        }
        // Shut down beside the caller: after a missed deadline the client is
        // still closing the abandoned request, and the caller is not kept waiting.
        Task { try? await client.shutdown() }
        return try result.get()
    }

    /// Runs `body`, or fails when `deadline` passes first, and then returns at
    /// once: `body` is cancelled but not awaited. A task group would wait for
    /// the cancelled request to unwind, which on a busy machine took 12 s past
    /// a 2 s deadline (an AsyncHTTPClient body read notices cancellation only
    /// when its channel gets to it).
    ///
    /// The deadline is a timer on a NIO event loop, not a sleeping task: a
    /// task's wake-up waits for a thread of Swift's cooperative pool, and while
    /// the pool was busy (imports on libdispatch's threads, which it shares) a
    /// 2 s deadline fired after 11 s (the second audit). Event loops have
    /// threads of their own, so the deadline settles the outcome on time.
    private static func within<T: Sendable>(_ deadline: ContinuousClock.Instant, _ location: String,
                                            _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let outcome = FirstOutcome<T>()
        let work = Task {
            do { outcome.settle(.success(try await body())) } catch { outcome.settle(.failure(error)) }
        }
        let remaining = ContinuousClock.now.duration(to: deadline)
        let timer = HTTPClient.defaultEventLoopGroup.next().scheduleTask(in: TimeAmount(max(remaining, .zero))) {
            outcome.settle(.failure(Failure(description: "\(location) did not send the whole calendar in time")))
        }
        defer { work.cancel(); timer.cancel() }
        return try await withTaskCancellationHandler {
            try await outcome.value
        } onCancel: {
            outcome.settle(.failure(CancellationError()))
        }
    }
}
