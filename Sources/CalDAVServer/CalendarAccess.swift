import CalDAV

/// What the signed-in person may do with a calendar, as its privileges say
/// (RFC 3744 `current-user-privilege-set`): a calendar app offers what they list.
enum CalendarAccess: Sendable, Equatable {
    /// An editor, an owner: every change.
    case edit
    /// A viewer of a space's calendar: they read it, and change their own
    /// alarms on its objects (`write-content` of existing objects; any other
    /// change is refused with 403 need-privileges).
    case ownAlarms
    /// Read only: a viewer of a calendar that is not a space's, a read-only app password.
    case read
    /// Busy time only (a `busy` member): read, as busy blocks.
    case busyOnly

    var privileges: [DAVName] {
        switch self {
        case .edit: [.d("read"), .d("write"), .d("write-properties"), .d("write-content"), .d("bind"), .d("unbind")]
        case .ownAlarms: [.d("read"), .d("write-content")]
        case .read, .busyOnly: [.d("read")]
        }
    }
}
