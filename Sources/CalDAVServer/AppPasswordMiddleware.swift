import Foundation
import HTTPSupport
import HTTPTypes
import Hummingbird
import Services

/// Signs calendar apps in with HTTP Basic: a person's login and one of their
/// app passwords (never the web password; `tminus users app-password`). The
/// request then runs as that person (`RequestPrincipal`). Basic carries the
/// password in every request, so over plain HTTP it is taken only from
/// loopback or a trusted proxy (one that terminated TLS in front); anyone
/// else is told to use https. Wrong passwords are throttled per login and per
/// client (behind a trusted proxy, the address it forwarded), a right one
/// never; OPTIONS needs no password (clients ask it before signing in).
package struct AppPasswordMiddleware: RouterMiddleware {
    package typealias Context = ServerContext
    let service: CountdownService
    let throttle: SignInThrottle
    /// TLS-terminating proxies (`--trusted-proxy`), beside loopback.
    let trusted: [AddressRange]
    let clock: @Sendable () -> Date

    package init(service: CountdownService, throttle: SignInThrottle, trusted: [AddressRange], clock: @escaping @Sendable () -> Date) {
        self.service = service.acting(as: .system)
        self.throttle = throttle
        self.trusted = trusted
        self.clock = clock
    }

    static let loopback = [try! AddressRange("127.0.0.0/8"), try! AddressRange("::1")]
    static let challenge: HTTPFields = [.wwwAuthenticate: "Basic realm=\"tminus\", charset=\"UTF-8\""]

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .options { return try await next(request, context) }
        let peer = context.remoteAddress?.ipAddress
        guard let peer, let bytes = AddressRange.bytes(of: peer), (Self.loopback + trusted).contains(where: { $0.contains(bytes) }) else {
            throw HTTPError(.forbidden, message: "calendar apps sign in with a password in every request: use https (a TLS proxy in front of tminus, "
                                                 + "named with --trusted-proxy), not plain http from another machine")
        }
        guard let (login, password) = Self.basic(request.headers[.authorization]) else {
            throw HTTPError(.unauthorized, headers: Self.challenge,
                            message: "sign in with your login name and an app password (`tminus users app-password`, or Your account in the web app)")
        }
        // The password is checked first, and a right one is never held back: behind the TLS proxy the docs
        // require, every app has the proxy's address, and five wrong passwords from one of them locked every
        // calendar app out (issue #59). App passwords are random and long, so the check is a hash lookup, and
        // guessing one is hopeless; what is throttled is the cost of wrong ones, per login and per client.
        if let person = try await service.person(login: login, appPassword: password) {
            return try await RequestPrincipal.$current.withValue(.person(person)) { try await next(request, context) }
        }
        let now = clock()
        let keys = ["dav login " + login.lowercased().prefix(200), "dav client " + client(request, peer: peer, bytes: bytes)]
        if let wait = keys.compactMap({ throttle.waitTime(client: $0, now: now) }).max() {
            throw HTTPError(.tooManyRequests, headers: [.retryAfter: String(wait)], message: "too many wrong passwords; try again in \(wait) s")
        }
        for key in keys { _ = throttle.admit(client: key, now: now) }
        throw HTTPError(.unauthorized, headers: Self.challenge, message: "the login name or app password is not right (an app password, not the web password)")
    }

    /// The client a failure is counted against: the peer, or behind a trusted proxy the address it appended last
    /// to X-Forwarded-For (the one it saw); loopback's own requests have no proxy to speak for them.
    func client(_ request: Request, peer: String, bytes: [UInt8]) -> String {
        guard trusted.contains(where: { $0.contains(bytes) }),
              let forwarded = request.headers[HTTPField.Name("X-Forwarded-For")!]?.split(separator: ",").last else { return peer }
        let address = forwarded.trimmingCharacters(in: .whitespaces)
        return !address.isEmpty && address.count <= 64 ? address : peer
    }

    /// The login and password of `Authorization: Basic …`.
    static func basic(_ header: String?) -> (String, String)? {
        guard let header, header.count <= 1024, header.lowercased().hasPrefix("basic "),
              let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let login = String(text[..<colon]), password = String(text[text.index(after: colon)...])
        return login.isEmpty || password.isEmpty ? nil : (login, password)
    }
}
