import Foundation

/// Where each CalDAV resource lives under `/dav/`: the root, a person's
/// principal, their calendar home, a calendar (a feed, by its address) and
/// an object in it (a countdown, by the name a client gave it or tminus made).
public enum DAVPath: Sendable, Equatable {
    case root
    case principal(login: String)
    case home(login: String)
    case calendar(login: String, feed: String)
    case object(login: String, feed: String, name: String)

    public static let base = "/dav/"

    /// Reads a request path or an `href` (a whole URL too), segments
    /// percent-decoded; nil outside `/dav/` or of an unknown shape.
    public init?(_ pathOrURL: String) {
        var path = pathOrURL
        if let url = URL(string: pathOrURL), url.scheme != nil { path = url.path(percentEncoded: true) }
        if let query = path.firstIndex(of: "?") { path = String(path[..<query]) }
        guard path.hasPrefix("/dav") else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map { String($0).removingPercentEncoding ?? String($0) }
        guard segments.first == "dav" else { return nil }
        let rest = Array(segments.dropFirst())
        switch (rest.first, rest.count) {
        case (nil, _): self = .root
        case ("principals"?, 2): self = .principal(login: rest[1])
        case ("calendars"?, 2): self = .home(login: rest[1])
        case ("calendars"?, 3): self = .calendar(login: rest[1], feed: rest[2])
        case ("calendars"?, 4): self = .object(login: rest[1], feed: rest[2], name: rest[3])
        default: return nil
        }
    }

    /// The path as an `href`: collections end with a slash, segments percent-encoded.
    public var href: String {
        switch self {
        case .root: Self.base
        case .principal(let login): Self.base + "principals/\(Self.encode(login))/"
        case .home(let login): Self.base + "calendars/\(Self.encode(login))/"
        case .calendar(let login, let feed): Self.base + "calendars/\(Self.encode(login))/\(Self.encode(feed))/"
        case .object(let login, let feed, let name): Self.base + "calendars/\(Self.encode(login))/\(Self.encode(feed))/\(Self.encode(name))"
        }
    }

    /// A path segment: unreserved characters as they are, every other byte as %XX.
    public static func encode(_ segment: String) -> String {
        var out = ""
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}

/// A countdown's object name when no client chose one: its UID (made safe
/// for a path when written as an href) with `.ics`; read back the same way.
public enum ObjectName {
    public static func make(uid: String) -> String { uid + ".ics" }

    /// The UID a name tminus made stands for (nil: not of that form).
    public static func uid(from name: String) -> String? {
        guard name.hasSuffix(".ics"), name.count > 4 else { return nil }
        return String(name.dropLast(4))
    }
}
