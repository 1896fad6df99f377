import Logging

/// A log handler's metadata, with the request id Hummingbird sets on every
/// request's logger kept in a field of its own: setting it in the dictionary
/// allocated one for each request (issue #41: the cached path). The text and
/// JSON handlers both keep theirs here.
struct LogMetadata {
    private var others: Logger.Metadata = [:]
    private var requestID: Logger.Metadata.Value?
    private static let requestIDKey = "hb.request.id"

    init(_ all: Logger.Metadata = [:]) {
        requestID = all[Self.requestIDKey]
        others = all
        others[Self.requestIDKey] = nil
    }

    /// Every key, the request id among them.
    var all: Logger.Metadata {
        guard let requestID else { return others }
        var all = others
        all[Self.requestIDKey] = requestID
        return all
    }

    subscript(key: String) -> Logger.Metadata.Value? {
        get { key == Self.requestIDKey ? requestID : others[key] }
        set {
            if key == Self.requestIDKey { requestID = newValue } else { others[key] = newValue }
        }
    }
}
