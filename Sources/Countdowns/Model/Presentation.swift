import Foundation

/// How a countdown looks on a card: a two-colour gradient, a text colour and an
/// optional image. Colours are `#RRGGBB`.
public struct Presentation: Sendable, Hashable, Codable {
    public var gradient: [String]
    public var textColor: String?
    /// An image URI, or `tminus-image:<sha256>` for an uploaded blob the store serves.
    public var image: String?

    public init(gradient: [String] = [], textColor: String? = nil, image: String? = nil) {
        self.gradient = gradient
        self.textColor = textColor
        self.image = image
    }

    public static let `default` = Presentation()

    /// `#RGB` or `#RRGGBB`, normalised to upper-case `#RRGGBB`; nil when not a colour.
    public static func normalizeHex(_ text: String) -> String? {
        var hex = text.trimmingCharacters(in: .whitespaces)
        guard hex.hasPrefix("#") else { return nil }
        hex.removeFirst()
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        guard hex.count == 6, hex.allSatisfy(\.isHexDigit) else { return nil }
        return "#" + hex.uppercased()
    }
}

