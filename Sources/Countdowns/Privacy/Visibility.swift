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
