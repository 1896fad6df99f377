import Hummingbird
import NIOCore

/// The context of every request: Hummingbird's basics plus the peer's address,
/// which the web app's sign-in throttle keys on. The web app's routes derive
/// their own context (`WebAppContext`) from this one, so public feeds pay for no
/// session machinery.
public struct ServerContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
