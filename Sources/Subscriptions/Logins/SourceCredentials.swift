import Foundation

/// How a URL source logs in (issue #26): HTTP Basic, a bearer token, extra
/// headers; for calendars on Nextcloud, Radicale, Fastmail or a school portal.
///
/// It holds where each secret is (a file, an environment variable), never a
/// secret itself: the value is read when a fetch needs it, so a rotated file
/// is used at the next fetch, and nothing that logs, reports or stores a
/// source can carry a password along. A feed file may not hold one inline.
package struct SourceCredentials: Sendable, Equatable {
    /// Where a secret is read from.
    package enum Secret: Sendable, Hashable, CustomStringConvertible {
        case file(String)
        case environment(String)
        /// A login entered in the web app, opened from its sealed row (`SecretBox`) and held in memory only.
        case saved(String)
        /// A saved login that could not be opened, and why: reading it fails with that.
        case unopenable(String)

        package var description: String {
            switch self {
            case .file(let path): "file \(path)"
            case .environment(let name): "environment variable \(name)"
            case .saved, .unopenable: "the login saved in the web app"
            }
        }

        /// The secret, without the line break a file usually ends with.
        package func read(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
            let value: String?
            switch self {
            case .file(let path):
                // A regular file of at most 64 KB: `/dev/zero` named by mistake must not hang a load.
                // Links are followed first: Kubernetes and Docker mount secrets as symlinks to files.
                let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
                let attributes = try? FileManager.default.attributesOfItem(atPath: target)
                guard attributes?[.type] as? FileAttributeType == .typeRegular, (attributes?[.size] as? Int ?? .max) <= 65_536 else {
                    throw CalendarFetcher.Failure(description: "the source's secret (\(self)) is not a readable file of at most 64 KB")
                }
                value = try? String(contentsOfFile: target, encoding: .utf8)
            case .environment(let name): value = environment[name]
            case .saved(let secret): value = secret
            case .unopenable(let reason): throw CalendarFetcher.Failure(description: reason)
            }
            let trimmed = value?.trimmingCharacters(in: .newlines) ?? ""
            guard !trimmed.isEmpty else { throw CalendarFetcher.Failure(description: "the source's secret (\(self)) cannot be read or is empty") }
            guard !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw CalendarFetcher.Failure(description: "the source's secret (\(self)) holds a control character")
            }
            return trimmed
        }
    }

    package struct Header: Sendable, Equatable {
        package var name: String
        package var value: Secret
    }

    package struct Basic: Sendable, Equatable {
        package var username: String
        package var password: Secret
    }

    package var basic: Basic?
    package var bearer: Secret?
    package var headers: [Header] = []

    /// The request headers, secrets read now. A secret that cannot be read is
    /// a fetch failure that names where it was looked for, never a value.
    package func requestHeaders(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [(name: String, value: String)] {
        var result: [(String, String)] = []
        if let basic {
            let pair = basic.username + ":" + (try basic.password.read(environment: environment))
            result.append(("Authorization", "Basic " + Data(pair.utf8).base64EncodedString()))
        }
        if let bearer { result.append(("Authorization", "Bearer " + (try bearer.read(environment: environment)))) }
        for header in headers { result.append((header.name, try header.value.read(environment: environment))) }
        return result
    }

    /// Whether credentials given for `origin` go along to `next`, a redirect:
    /// only to the same host and port, and never from https down to http.
    /// An upgrade from http to https on the same host goes to 443 or to the
    /// port it came from: another port on that host may be another service.
    /// Another host (a CDN, a login page elsewhere) gets the request without them.
    package static func mayFollow(from origin: URL, to next: URL) -> Bool {
        guard let host = origin.host?.lowercased(), next.host?.lowercased() == host else { return false }
        let (from, to) = (origin.scheme?.lowercased() ?? "", next.scheme?.lowercased() ?? "")
        guard from == to || (from == "http" && to == "https") else { return false }
        func port(_ url: URL) -> Int { url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80) }
        return port(next) == port(origin) || (from != to && port(next) == 443)
    }
}
