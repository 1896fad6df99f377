/// A decoding error as a person reads it in a 400: the field's path and what
/// was wrong, not Swift's debug dump. JSON bodies and web forms both say it.
extension DecodingError {
    package var readable: String {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (path.isEmpty ? "" : "\(path): ") + context.debugDescription
        case .keyNotFound(let key, _): return "\(key.stringValue) is required"
        @unknown default: return "\(self)"
        }
    }
}
