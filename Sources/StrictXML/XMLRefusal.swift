/// Why a document was refused, in words for the person who sent it (a 400's
/// body, an upload form's error), with the line where that is known.
public struct XMLRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
