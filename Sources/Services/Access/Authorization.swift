import Countdowns

/// The one place that decides what a principal may do. The admin token, the
/// command line and the server itself may do everything; someone not signed
/// in nothing; a feed token only reads its own feed in full (a `titles` or
/// `busy` token reads a redacted view, which the server serves without a use
/// case); a person may do what their `Standing` toward the feed or space
/// allows by `AccessTable`, and only reads with a read-only token.
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

    /// `standing` is the person's toward the feed or space the permission is
    /// about (`CountdownService` reads it); it is not asked for other principals.
    public static func allows(_ principal: Principal, _ permission: Permission, standing: Standing? = nil) -> Bool {
        switch principal {
        case .adminToken, .system, .commandLine: true
        case .anonymous: false
        case .feedToken(let feed, let visibility):
            switch permission {
            case .readFeed(let slug): slug == feed && visibility == .full
            // Every visibility shows at least when the events are.
            case .readBusyTimes(let slug): slug == feed
            default: false
            }
        case .person(let person):
            if person.readOnly && ![.read, .readBusy].contains(permission.action) { false }
            else if person.isAdmin { true }
            else {
                switch permission {
                // Any person makes their own feeds; only the operator makes and deletes anyone's.
                case .createFeed(nil): true
                case .manageFeeds, .administer: false
                default: AccessTable.allows(standing ?? .outsider, permission.action)
                }
            }
        }
    }

    /// The view of feed `slug` that `principal` reads through the feed links
    /// (`/feeds/…`, `/t/{token}/feeds/…`), or nil when it reads none (a 404,
    /// like a feed that does not exist): anyone reads a public feed with its
    /// classified events busy; a token reads its own feed as its visibility
    /// allows; the operator's principals read every feed whole. A person reads
    /// through the use cases (`authorize(.readFeed)`), where their standing is;
    /// no feed link acts as a person.
    public static func view(_ principal: Principal, ofFeed slug: String, isPublic: Bool) -> Redaction? {
        switch principal {
        case .anonymous: isPublic ? .classified : nil
        case .feedToken(let feed, let visibility): feed == slug ? Redaction(link: visibility) : nil
        case .adminToken, .system, .commandLine: Redaction.none
        case .person: nil
        }
    }

    public static func check(_ principal: Principal, _ permission: Permission, standing: Standing? = nil) throws(Refused) {
        guard allows(principal, permission, standing: standing) else { throw Refused(principal: principal, permission: permission) }
    }
}
