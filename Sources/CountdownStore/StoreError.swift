import ICalendar

/// Why a store operation was refused. Every case leaves the database as it was.
public enum StoreError: Error, Sendable, CustomStringConvertible, Equatable {
    case feedNotFound(String)
    case feedExists(String)
    case invalidSlug(String)
    case countdownNotFound(Int64)
    /// No such person, or none the caller may see (issue #37).
    case personNotFound(String)
    /// No such space, or none the caller may see.
    case spaceNotFound(String)
    /// No open invitation with this id, or none the caller may revoke (issue #59, 9).
    case invitationNotFound(String)
    /// Someone already has this login.
    case loginTaken(String)
    case duplicateUID(String, feed: String)
    case tooLarge(bytes: Int, limit: Int)
    case tooManyComponents(count: Int, limit: Int)
    case unusableCalendar(ICalendarError)
    case invalid(String)
    /// A write would take a person's or a space's feeds past their storage quota (issue #59, 14): 507.
    case overQuota(String)
    /// One countdown's text is over `StoreLimits.maxCountdownBytes` (a 30 MB description was kept): 413.
    case countdownTooLarge(title: String, bytes: Int, limit: Int)
    /// SQLite could not grow the file: the disk is full, or `max_page_count` was reached.
    case storageFull
    /// The database server cannot be reached or refused the work for now
    /// (PostgreSQL restarting, no connections left): try again later.
    case unavailable(String)
    /// The database file cannot be used as it is (read-only, a folder, deleted
    /// or replaced under a running server): waiting will not help, someone must act.
    case unusable(String)
    /// The database holds a migration this build does not know: a newer tminus
    /// made or upgraded it, and this one must not write to it.
    case newerSchema(database: String, migration: String)
    /// A row read back from the database has no id: only a damaged database does that.
    case unsaved(String)

    public var description: String {
        switch self {
        case .feedNotFound(let slug): "no feed '\(slug)' (see `tminus feeds`)"
        case .feedExists(let slug): "a feed '\(slug)' already exists"
        case .invalidSlug(let slug): "'\(slug)' is not a valid feed slug: use lower-case letters, digits and dashes (at most 64)"
        case .countdownNotFound(let id): "no countdown with id \(id) (see `tminus list`)"
        case .personNotFound(let login): "no person '\(login)' (see `tminus users list`)"
        case .spaceNotFound(let slug): "no space '\(slug)'"
        case .invitationNotFound(let id): "no open invitation '\(id)' (see `tminus users invitations`)"
        case .loginTaken(let login): "a person '\(login)' already exists"
        case .duplicateUID(let uid, let feed): "feed '\(feed)' already has a countdown with UID \(uid)"
        case .tooLarge(let bytes, let limit): "the calendar is \(bytes) bytes, over the limit of \(limit) bytes"
        case .tooManyComponents(let count, let limit): "the calendar has \(count) events and tasks, over the limit of \(limit)"
        case .unusableCalendar(let error): "\(error)"
        case .invalid(let message): message
        case .overQuota(let message): message
        case .countdownTooLarge(let title, let bytes, let limit):
            "“\(title.prefix(80))” is \(bytes) bytes of text, over the limit of \(limit) bytes for one countdown (shorten its description); nothing was changed"
        case .storageFull: "the database cannot grow (the disk is full, or its size limit was reached); nothing was changed"
        case .unavailable(let why): "the database is unavailable, nothing was changed; try again shortly (\(why))"
        case .unusable(let why): "\(why); nothing was changed"
        case .unsaved(let kind): "the database holds a \(kind) without an id (is it damaged? `tminus backup` and `tminus restore` rebuild it); nothing was changed"
        case .newerSchema(let database, let migration):
            "the database \(database) was made by a newer tminus (it has the migration '\(migration)', which this version does not know); "
                + "it was not opened: run the newer tminus, or restore a backup made by this version"
        }
    }
}

/// Defaults that keep one import or expansion from exhausting the machine;
/// every one can be raised by the caller.
public struct StoreLimits: Sendable, Equatable {
    public var maxInputBytes: Int
    public var maxComponents: Int
    public var maxOccurrences: Int
    public var maxImageBytes: Int
    /// One countdown's kept text (its description, notes and the rest), 1 MiB by default.
    public var maxCountdownBytes: Int

    public init(maxInputBytes: Int = 32 << 20, maxComponents: Int = 100_000, maxOccurrences: Int = 50_000, maxImageBytes: Int = 5 << 20,
                maxCountdownBytes: Int = 1 << 20) {
        self.maxInputBytes = maxInputBytes
        self.maxComponents = maxComponents
        self.maxOccurrences = maxOccurrences
        self.maxImageBytes = maxImageBytes
        self.maxCountdownBytes = maxCountdownBytes
    }
}
