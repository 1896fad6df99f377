/// The one place that decides what a principal may do. Today tminus has one
/// owner: the owner, the admin token and the server itself may do everything,
/// and a feed token only reads its own feed in full (a `titles` or `busy`
/// token reads a redacted view, which the server serves without a use case).
public enum Authorization {
    /// A use case refused for its principal: nothing was changed.
    public struct Refused: Error, Sendable, Equatable, CustomStringConvertible {
        public var principal: Principal
        public var permission: Permission

        public init(principal: Principal, permission: Permission) {
            self.principal = principal
            self.permission = permission
        }

        public var description: String { "\(principal) may not \(permission); nothing was changed" }
    }

    public static func allows(_ principal: Principal, _ permission: Permission) -> Bool {
        switch principal {
        case .owner, .adminToken, .system: true
        case .feedToken(let feed, let visibility):
            if case .readFeed(let slug) = permission { slug == feed && visibility == .full } else { false }
        }
    }

    public static func check(_ principal: Principal, _ permission: Permission) throws(Refused) {
        guard allows(principal, permission) else { throw Refused(principal: principal, permission: permission) }
    }
}
