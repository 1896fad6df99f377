import CountdownStore
import Foundation

/// The part of a countdown row that an import compares against: whether the
/// incoming countdown is new, changed or unchanged, and what its stamps become.
public struct CountdownState: Sendable {
    public var id: Int64
    public var content: String
    public var sequence: Int
    public var lastModified: Date
    public var sourceId: Int64?
    /// For the change log, should the import remove it.
    public var title: String

    public init(id: Int64, content: String, sequence: Int, lastModified: Date, sourceId: Int64?, title: String = "") {
        self.id = id
        self.title = title
        self.content = content
        self.sequence = sequence
        self.lastModified = lastModified
        self.sourceId = sourceId
    }

    init(_ row: CountdownRecord) {
        self.init(id: row.id ?? 0, content: row.content, sequence: row.sequence, lastModified: row.lastModified, sourceId: row.sourceId, title: row.title)
    }
}
