import Hummingbird
import NIOCore

/// The context of every request: Hummingbird's basics plus the peer's address,
/// which the web app's sign-in throttle keys on. The web app's routes derive
/// their own context (`WebAppContext`) from this one, so public feeds pay for no
/// session machinery.
public struct ServerContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    private let channel: any Channel

    /// Read when asked, not for every request: the channel keeps its
    /// addresses behind a lock, and a feed read never asks (issue #41: the
    /// 304 path).
    public var remoteAddress: SocketAddress? { channel.remoteAddress }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
