/// A page cursor the renderer will not continue from: one from the future (not
/// this server's), or one older than `FeedCursor.maxAge` minutes. HTTP answers
/// 400 and 409 (HTTPSupport); the renderer knows no status codes.
package enum UnusableCursor: Error, Equatable, CustomStringConvertible {
    case notOurs
    case tooOld

    package var description: String {
        switch self {
        case .notOurs: "cursor is not one this server wrote: start from the first page, without cursor"
        case .tooOld: "this cursor is more than \(FeedCursor.maxAge) minutes old: start again from the first page, without cursor"
        }
    }
}
