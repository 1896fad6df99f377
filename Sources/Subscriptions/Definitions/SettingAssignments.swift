import Countdowns
import Foundation
import Rules
import Yams

/// Settings given one at a time as `key=value` (`tminus feeds add --set`),
/// each value written as a feed file writes it (YAML: `sort=title`,
/// `weekend=[fri, sat]`, `countdown={mode: milestones, milestones: [30, 7, 1]}`).
/// They become the same `FeedSettingsDocument` as a feed file, so a new
/// setting is known here without a line of its own.
package enum SettingAssignments {
    package struct Invalid: Error, CustomStringConvertible {
        package var description: String
    }

    package static func document(_ assignments: [String]) throws(Invalid) -> FeedSettingsDocument {
        guard !assignments.isEmpty else { return FeedSettingsDocument() }
        var lines: [String] = []
        var seen = Set<String>()
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "=") else {
                throw Invalid(description: "--set '\(assignment)': write it as key=value, such as --set sort=title")
            }
            let key = assignment[..<equals].trimmingCharacters(in: .whitespaces)
            let value = assignment[assignment.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard FeedSettingsDocument.keys.contains(key) else {
                throw Invalid(description: "--set: '\(key)' is not a feed setting (one of \(FeedSettingsDocument.keys.joined(separator: ", ")))")
            }
            guard seen.insert(key).inserted else { throw Invalid(description: "--set: '\(key)' is given twice") }
            guard !value.contains(where: \.isNewline) else { throw Invalid(description: "--set \(key): the value must be one line") }
            lines.append("\(key): \(value.isEmpty ? "''" : value)")
        }
        do {
            return try YAMLDecoder().decode(FeedSettingsDocument.self, from: try BoundedYAML.compose(lines.joined(separator: "\n")) ?? "")
        } catch {
            throw Invalid(description: "--set: \(Self.reason(error))")
        }
    }

    /// A decoding error as the setting and what it should be.
    private static func reason(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")) must be \(Self.noun(type))"
        case .keyNotFound(let key, _): return "\(key.stringValue) is missing"
        case .dataCorrupted(let context): return context.debugDescription
        @unknown default: return "\(error)"
        }
    }

    private static func noun(_ type: Any.Type) -> String {
        switch type {
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is String.Type: "text"
        case is [Int].Type: "a list of whole numbers, such as [30, 7, 1]"
        case is [String].Type: "a list, such as [fri, sat]"
        default: "a mapping, such as {key: value}"
        }
    }
}
