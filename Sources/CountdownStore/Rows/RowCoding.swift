import Foundation

/// A record as one row of `StoreValue`s, in its `StoreTable`'s column order,
/// through the record's own Codable conformance: a store that writes SQL by
/// hand (PostgreSQL) builds its SELECT, INSERT and UPDATE from the table's
/// column list and never names a record's columns again. GRDB does the same
/// for SQLite from the same Codable conformance.
///
/// Only the cell types a table holds are supported (text, integers, booleans,
/// dates, bytes, values stored as their raw text, and optionals of them);
/// anything else is a coding error, thrown.
public enum RowCoding {
    /// The record's cells in `table.columns` order; a column the record leaves out (a nil optional) is NULL.
    public static func cells(of record: some Encodable, in table: StoreTable) throws -> [StoreValue] {
        let encoder = CellEncoder()
        try record.encode(to: encoder)
        return table.columns.map { encoder.cells.values[$0.name] ?? .null }
    }

    /// The record a row holds, its cells in `table.columns` order.
    public static func record<Record: Decodable>(_ type: Record.Type, from cells: [StoreValue], in table: StoreTable) throws -> Record {
        try Record(from: CellDecoder(cells: Dictionary(uniqueKeysWithValues: zip(table.columns.map(\.name), cells))))
    }

    package struct Unsupported: Error, CustomStringConvertible {
        package var what: String
        package var description: String { "a store row cannot hold \(what)" }
    }
}

/// Collects cells by column name.
private final class CellEncoder: Encoder {
    final class Cells { var values: [String: StoreValue] = [:] }
    let cells = Cells()
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container(cells: cells))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("a store row is keyed by column") }
    func singleValueContainer() -> any SingleValueEncodingContainer { fatalError("a store row is keyed by column") }

    struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let cells: Cells
        var codingPath: [any CodingKey] = []

        mutating func encodeNil(forKey key: Key) throws { cells.values[key.stringValue] = .null }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            cells.values[key.stringValue] = switch value {
            case let text as String: .text(text)
            case let number as Int64: .integer(number)
            case let number as Int: .integer(Int64(number))
            case let flag as Bool: .boolean(flag)
            case let date as Date: .date(date)
            case let data as Data: .blob(data)
            case let text as any RawRepresentable<String>: .text(text.rawValue)
            default: throw RowCoding.Unsupported(what: "\(T.self) (column \(key.stringValue))")
            }
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            fatalError("a store row has no nested values")
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { fatalError("a store row has no nested values") }
        mutating func superEncoder() -> any Encoder { fatalError("a store row has no nested values") }
        mutating func superEncoder(forKey key: Key) -> any Encoder { fatalError("a store row has no nested values") }
    }
}

/// Reads cells by column name.
private struct CellDecoder: Decoder {
    let cells: [String: StoreValue]
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container(cells: cells))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw RowCoding.Unsupported(what: "a list") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw RowCoding.Unsupported(what: "a single value") }

    struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let cells: [String: StoreValue]
        var codingPath: [any CodingKey] = []
        var allKeys: [Key] { cells.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { cells[key.stringValue] != nil }
        func decodeNil(forKey key: Key) throws -> Bool { (cells[key.stringValue] ?? .null) == .null }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let cell = cells[key.stringValue] ?? .null
            let value: Any? = switch (cell, type) {
            case (.text(let text), is String.Type): text
            case (.integer(let number), is Int64.Type): number
            case (.integer(let number), is Int.Type): Int(number)
            case (.boolean(let flag), is Bool.Type): flag
            case (.integer(let number), is Bool.Type): number != 0
            case (.date(let date), is Date.Type): date
            case (.blob(let data), is Data.Type): data
            case (.text(let text), let textual as any RawRepresentable<String>.Type): textual.init(rawValue: text)
            default: nil
            }
            guard let typed = value as? T else {
                throw DecodingError.typeMismatch(T.self, .init(codingPath: [key], debugDescription: "column \(key.stringValue) holds \(cell)"))
            }
            return typed
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw RowCoding.Unsupported(what: "a nested value")
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw RowCoding.Unsupported(what: "a list") }
        func superDecoder() throws -> any Decoder { throw RowCoding.Unsupported(what: "a nested value") }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw RowCoding.Unsupported(what: "a nested value") }
    }
}
