import CountdownStore

/// Who a web-app session is for: the person, and the epoch of their sessions
/// it began under (`PersonRecord.sessionEpoch`), which the session keeps.
public struct SignedInPerson: Sendable, Equatable {
    public var access: PersonAccess
    public var sessionEpoch: String?
    /// Their language's code, when they chose one.
    public var language: String?
    public var displayName: String
    /// The password was right; a second factor's code is asked next.
    public var needsSecondFactor = false

    public init(access: PersonAccess, sessionEpoch: String?, language: String?, displayName: String) {
        self.access = access
        self.sessionEpoch = sessionEpoch
        self.language = language
        self.displayName = displayName
    }

    init(_ person: PersonRecord, id: Int64) {
        self.init(access: PersonAccess(id: id, login: person.login, isAdmin: person.isAdmin), sessionEpoch: person.sessionEpoch,
                  language: person.language, displayName: person.displayName)
        needsSecondFactor = person.hasSecondFactor
    }
}
