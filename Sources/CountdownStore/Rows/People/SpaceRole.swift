/// What a member may do in a space: `owner` (members and settings, and
/// what reaches the network: sources, hooks, rules), `editor` (feeds and
/// countdowns), `viewer` (read), `busy` (when the space's events are, and
/// nothing of what they are: a colleague who plans around a family's
/// calendar, as a `busy` feed link does for someone without an account).
public enum SpaceRole: String, Codable, Sendable, CaseIterable, Comparable {
    case owner, editor, viewer, busy

    /// Owner above editor above viewer above busy.
    public static func < (lhs: SpaceRole, rhs: SpaceRole) -> Bool {
        allCases.firstIndex(of: lhs)! > allCases.firstIndex(of: rhs)!
    }
}
