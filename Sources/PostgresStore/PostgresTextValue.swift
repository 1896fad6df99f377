import Countdowns
import CountdownStore
import NIOCore
import PostgresNIO

/// An enum stored as its raw text, as `DatabaseValueConvertible` does for
/// SQLite: queries bind and decode the typed value itself, and a row holding
/// text no case matches is a decoding error, never a silent default.
public protocol PostgresTextValue: RawRepresentable<String>, PostgresNonThrowingEncodable, PostgresDecodable {
    init?(rawValue: String)
}

extension PostgresTextValue {
    public static var psqlType: PostgresDataType { .text }
    public static var psqlFormat: PostgresFormat { .binary }

    public func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        rawValue.encode(into: &byteBuffer, context: context)
    }

    public init<JSONDecoder: PostgresJSONDecoder>(from byteBuffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
                                           context: PostgresDecodingContext<JSONDecoder>) throws {
        guard let value = Self(rawValue: try String(from: &byteBuffer, type: type, format: format, context: context)) else {
            throw PostgresDecodingError.Code.failure
        }
        self = value
    }
}

extension Redaction: PostgresTextValue {}
