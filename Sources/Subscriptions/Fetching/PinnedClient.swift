import AsyncHTTPClient
import Foundation
import NIOPosix

/// An HTTP client for one outbound request to `location`, connected to the
/// address `AddressPolicy` allowed and to no other: the name is resolved and
/// checked once, and the connection goes to exactly that address
/// (AsyncHTTPClient's `dnsOverride`; TLS still checks the certificate against
/// the host name), so a name cannot resolve to a public address for the check
/// and a private one for the connection. Redirects are never followed here: a
/// caller that follows them checks each hop again. Every outbound request
/// (URL sources, `{"url"}` imports, purge hooks) goes through this.
package struct PinnedClient {
    package let url: URL
    package let client: HTTPClient

    package struct Refused: Error, CustomStringConvertible {
        package var description: String
    }

    /// Checks the scheme and the host's addresses; the caller shuts `client` down.
    package static func connect(to location: String, policy: AddressPolicy) async throws(Refused) -> PinnedClient {
        guard let url = URL(string: location), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw Refused(description: "\(location.prefix(200)): only http and https URLs are fetched")
        }
        guard let host = url.host, !host.isEmpty else { throw Refused(description: "\(location.prefix(200)) has no host") }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let address: String
        do {
            address = try await NIOThreadPool.singleton.runIfActive { try policy.resolve(host, port: port) }   // getaddrinfo blocks
        } catch let refusal as AddressPolicy.Refusal {
            throw Refused(description: refusal.description)
        } catch {
            throw Refused(description: "cannot resolve \(host): \(error)")
        }
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow,
                                                     timeout: .init(connect: .seconds(10), read: .seconds(30)))
        configuration.dnsOverride = [host: address]
        return PinnedClient(url: url, client: HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration))
    }
}
