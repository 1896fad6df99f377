/// A person as a use case runs for them: who they are, whether they
/// administer the server, and whether the token they came with only reads.
/// What they may do with a feed or a space is their `Standing` there.
public struct PersonAccess: Sendable, Hashable {
    public var id: Int64
    public var login: String
    public var isAdmin: Bool
    /// Came with a read-only API token: reads, nothing else.
    public var readOnly: Bool
    /// The app password's label, when a calendar app signed them in: the
    /// history names what it changes "anna via Anna's iPhone".
    public var app: String?

    public init(id: Int64, login: String, isAdmin: Bool, readOnly: Bool = false, app: String? = nil) {
        self.id = id
        self.login = login
        self.isAdmin = isAdmin
        self.readOnly = readOnly
        self.app = app
    }
}
