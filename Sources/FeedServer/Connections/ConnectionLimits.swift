import Foundation
import HummingbirdCore
import Logging
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// How many connections the server holds and for how long: what keeps idle or
/// half-sent connections from using up the process's file descriptors.
public struct ConnectionLimits: Sendable {
    /// A keep-alive connection with no request in flight is closed after this.
    public var idleTimeout: Duration = .seconds(30)
    /// A request head must arrive within this of connecting or of the previous response.
    public var requestHeadTimeout: Duration = .seconds(20)
    /// After a request head, its body may take this long before `minimumBodyRate` applies.
    public var bodyGrace: Duration = .seconds(10)
    /// Bytes a second a request body must average after `bodyGrace`; a slower
    /// sender loses its connection (a drip of one byte every few seconds held
    /// a connection for ever).
    public var minimumBodyRate = 1_024
    /// Connections accepted at once; more wait in the listen backlog. Nil:
    /// `defaultMaxConnections`, or fewer when the descriptor limit is low.
    public var maxConnections: Int?

    /// Each open connection costs the server about 12 KB (measured: 5,000 idle
    /// connections added 60 MB), so the default keeps 1,024 of them, as nginx
    /// does per worker: about 12 MB. Idle and half-sent ones are closed after
    /// `requestHeadTimeout`, which frees their places for the clients waiting in
    /// the backlog. Behind a reverse proxy, the proxy holds the slow clients.
    public static let defaultMaxConnections = 1_024

    public init(idleTimeout: Duration = .seconds(30), requestHeadTimeout: Duration = .seconds(20), maxConnections: Int? = nil) {
        self.idleTimeout = idleTimeout
        self.requestHeadTimeout = requestHeadTimeout
        self.maxConnections = maxConnections
    }

    /// Descriptors kept back for SQLite, outbound fetches, logs and the listener.
    package static let reservedDescriptors = 512

    /// Raises the soft descriptor limit to the hard one (the default soft limit
    /// is often 1,024) and returns the connection limit that leaves room for
    /// everything else the server opens.
    package func resolvedMaxConnections(logger: Logger) -> Int {
        let available = Self.raiseDescriptorLimit()
        let derived = max(64, available - Self.reservedDescriptors)
        guard let maxConnections else { return min(Self.defaultMaxConnections, derived) }
        if maxConnections > derived {
            logger.warning("--max-connections is above what the descriptor limit allows; lowering it",
                           metadata: ["requested": "\(maxConnections)", "allowed": "\(derived)"])
            return derived
        }
        return maxConnections
    }

    private static func raiseDescriptorLimit() -> Int {
        #if canImport(Glibc)
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = min(limit.rlim_max, 1 << 20)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
        #else
        return 1024
        #endif
    }

    package var timeAmounts: (idle: TimeAmount, head: TimeAmount) {
        (TimeAmount(idleTimeout), TimeAmount(requestHeadTimeout))
    }

    /// What `RequestDeadline` enforces on each connection. After a response the
    /// next head may take the idle timeout: that is the keep-alive idle time (it
    /// was the head deadline, which closed idle connections at 20 s, not 30).
    package var requestDeadline: RequestDeadline.Limits {
        RequestDeadline.Limits(headLimit: TimeAmount(requestHeadTimeout), idleLimit: TimeAmount(max(idleTimeout, requestHeadTimeout)),
                               bodyGrace: TimeAmount(bodyGrace), minimumBodyRate: minimumBodyRate)
    }
}
