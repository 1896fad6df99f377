/// How much of a feed one token link shows. Chosen when the link is made, so
/// a feed can be shared in full with family, as titles with colleagues, and as
/// busy times with anyone else, each through its own link.
public enum Visibility: String, Sendable, Hashable, CaseIterable, Codable {
    /// Everything, CLASS:PRIVATE and CONFIDENTIAL events included.
    case full
    /// Titles and times; no description, location, URL, attendees, images or X-properties.
    case titles
    /// Every event becomes "Busy", with its times only.
    case busy
}

extension Visibility {
    /// A visibility no link can have, named in the words a user typed.
    public struct Unknown: Error, Sendable, Equatable, CustomStringConvertible {
        public var name: String
        public var description: String {
            "visibility must be one of \(Visibility.allCases.map(\.rawValue).joined(separator: ", ")), not '\(SafeText.clean(String(name.prefix(40))))'"
        }
    }

    /// A visibility as the admin API and the web app's token form name it; `full` when none is given.
    public init(naming name: String?) throws(Unknown) {
        guard let name else { self = .full; return }
        guard let known = Visibility(rawValue: name) else { throw Unknown(name: name) }
        self = known
    }
}
