import Countdowns
import Hummingbird
import ICalendar

/// `?tz=` as every HTTP front end reads it: the public feeds, the web app's
/// pages. One parse (`ViewerZone`), one 400.
extension ViewerZone {
    /// The viewer's zone from `?tz=`, else `fallback`; a name that is not a zone is a 400.
    package static func fromQuery(_ raw: String?, default fallback: Zone) throws -> Zone {
        do { return try parse(raw, default: fallback) } catch {
            throw HTTPError(.badRequest, message: "tz must be a known time zone name (\(ViewerZone.Unknown.hint))")
        }
    }
}
