import ArgumentParser
import Foundation
import Logging
import Synchronization

/// `tminus serve --log-format json`: one JSON object a line on standard error,
/// for log shippers (journald, Loki, Elasticsearch). The same records as the
/// text format, so the same redaction holds: request paths with their token
/// written as `***`, no query strings, no headers. Metadata keys sit beside
/// `time`, `level`, `label` and `message`; one that would hide those is
/// written as `metadata.KEY`.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    private var kept = LogMetadata()
    var metadata: Logger.Metadata {
        get { kept.all }
        set { kept = LogMetadata(newValue) }
    }
    private let output: @Sendable (String) -> Void

    static let reserved: Set<String> = ["time", "level", "label", "message", "source", "error"]

    init(label: String, output: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.output = output
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { kept[key] }
        set { kept[key] = newValue }
    }

    func log(event: LogEvent) {
        var object: [String: Any] = ["time": Self.timestamp(Date()), "level": event.level.rawValue, "label": label,
                                     "message": event.message.description, "source": event.source]
        if let error = event.error { object["error"] = "\(error)" }
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }) {
            object[Self.reserved.contains(key) ? "metadata." + key : key] = Self.json(value)
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        output(String(decoding: data, as: UTF8.self))
    }

    static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(json)
        case .dictionary(let values): values.mapValues(json)
        }
    }

    /// `2026-11-25T01:19:33.123Z`: UTC, milliseconds, sortable.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().timeSeparator(.colon).time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    private static let lock = Mutex(())

    /// One write a line, under a lock, so lines from two threads never interleave.
    static let standardError: @Sendable (String) -> Void = { line in
        lock.withLock { _ in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }
}

/// How `tminus serve` writes its log.
enum LogFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json
}
