import Logging

/// `tminus serve`'s text log (the default format): swift-log's
/// `StreamLogHandler` lines on standard error, written by it, with the
/// logger's metadata kept here as set and given to it only when a line is
/// written.
///
/// Why: `StreamLogHandler` formats all of a logger's metadata again whenever
/// one key is set, and Hummingbird sets the request id on every request's
/// logger, so every request paid for sorting and joining metadata that a
/// debug line alone would show (issue #41: 2–4% of a cached response).
struct TextLogHandler: LogHandler {
    private var stream: StreamLogHandler
    private var kept = LogMetadata()

    var metadata: Logger.Metadata {
        get { kept.all }
        set { kept = LogMetadata(newValue) }
    }

    init(label: String) {
        stream = StreamLogHandler.standardError(label: label)
    }

    var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { kept[key] }
        set { kept[key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        let metadata = metadata
        if !metadata.isEmpty { event.metadata = metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }) }
        stream.log(event: event)
    }
}
