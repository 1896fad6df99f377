/// What a member may do in a space: `owner` (members and settings, and
/// what reaches the network: sources, hooks, rules), `editor` (feeds and
/// countdowns), `viewer` (read).
public enum SpaceRole: String, Codable, Sendable, CaseIterable, Comparable {
    case owner, editor, viewer

    /// Owner above editor above viewer.
    public static func < (lhs: SpaceRole, rhs: SpaceRole) -> Bool {
        allCases.firstIndex(of: lhs)! > allCases.firstIndex(of: rhs)!
    }
}
