/// How much of a document `StrictXMLReader` reads before it refuses it. A
/// request body or an upload is hostile until read: each bound turns what
/// would cost memory or CPU into a refusal, checked while reading, not after.
public struct XMLLimits: Sendable, Equatable {
    public var maxBytes = 256 * 1024
    public var maxDepth = 32
    public var maxElements = 20_000
    /// The longest namespace URI, in bytes: an element's or an attribute's.
    /// A 100 KB namespace repeated in every answer was a 1,783× amplification (issue #59).
    public var maxNamespaceBytes = 1024
    /// The longest element or attribute name, in bytes.
    public var maxNameBytes = 256
    public var maxAttributes = 256

    public init() {}
}
