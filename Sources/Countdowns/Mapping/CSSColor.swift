/// RFC 7986 COLOR takes a CSS3 colour name, while cards use hex gradients: the
/// exported COLOR is the named colour nearest to the gradient's first colour.
public enum CSSColor {
    static let named: [(String, UInt32)] = [
        ("black", 0x000000), ("white", 0xFFFFFF), ("gray", 0x808080), ("silver", 0xC0C0C0), ("dimgray", 0x696969),
        ("red", 0xFF0000), ("crimson", 0xDC143C), ("firebrick", 0xB22222), ("darkred", 0x8B0000), ("tomato", 0xFF6347),
        ("orangered", 0xFF4500), ("coral", 0xFF7F50), ("salmon", 0xFA8072), ("orange", 0xFFA500), ("darkorange", 0xFF8C00),
        ("gold", 0xFFD700), ("yellow", 0xFFFF00), ("khaki", 0xF0E68C), ("goldenrod", 0xDAA520), ("chocolate", 0xD2691E),
        ("sienna", 0xA0522D), ("brown", 0xA52A2A), ("tan", 0xD2B48C), ("wheat", 0xF5DEB3), ("beige", 0xF5F5DC),
        ("lime", 0x00FF00), ("limegreen", 0x32CD32), ("green", 0x008000), ("forestgreen", 0x228B22), ("darkgreen", 0x006400),
        ("seagreen", 0x2E8B57), ("mediumseagreen", 0x3CB371), ("olive", 0x808000), ("olivedrab", 0x6B8E23), ("yellowgreen", 0x9ACD32),
        ("springgreen", 0x00FF7F), ("teal", 0x008080), ("darkcyan", 0x008B8B), ("cyan", 0x00FFFF), ("turquoise", 0x40E0D0),
        ("aquamarine", 0x7FFFD4), ("cadetblue", 0x5F9EA0), ("steelblue", 0x4682B4), ("skyblue", 0x87CEEB), ("deepskyblue", 0x00BFFF),
        ("dodgerblue", 0x1E90FF), ("cornflowerblue", 0x6495ED), ("royalblue", 0x4169E1), ("blue", 0x0000FF), ("mediumblue", 0x0000CD),
        ("navy", 0x000080), ("midnightblue", 0x191970), ("slateblue", 0x6A5ACD), ("indigo", 0x4B0082), ("purple", 0x800080),
        ("darkviolet", 0x9400D3), ("mediumpurple", 0x9370DB), ("orchid", 0xDA70D6), ("violet", 0xEE82EE), ("plum", 0xDDA0DD),
        ("magenta", 0xFF00FF), ("deeppink", 0xFF1493), ("hotpink", 0xFF69B4), ("pink", 0xFFC0CB), ("lavender", 0xE6E6FA),
        ("slategray", 0x708090), ("lightgray", 0xD3D3D3), ("ivory", 0xFFFFF0), ("mintcream", 0xF5FFFA), ("honeydew", 0xF0FFF0),
    ]

    /// A colour as RFC 7986's COLOR wants it, a CSS3 name: a name is kept
    /// (in lower case), `#RRGGBB` becomes the nearest name, anything else is nil.
    public static func name(for raw: String) -> String? {
        let lowered = raw.trimmingCharacters(in: .whitespaces).lowercased()
        if named.contains(where: { $0.0 == lowered }) { return lowered }
        return nearestName(toHex: lowered)
    }

    /// The nearest CSS3 name for `#RRGGBB`, by distance in RGB space weighted for the eye.
    public static func nearestName(toHex hex: String) -> String? {
        guard let normalized = Presentation.normalizeHex(hex), let value = UInt32(normalized.dropFirst(), radix: 16) else { return nil }
        func distance(_ a: UInt32, _ b: UInt32) -> Int {
            let dr = Int((a >> 16) & 0xFF) - Int((b >> 16) & 0xFF)
            let dg = Int((a >> 8) & 0xFF) - Int((b >> 8) & 0xFF)
            let db = Int(a & 0xFF) - Int(b & 0xFF)
            return 2 * dr * dr + 4 * dg * dg + 3 * db * db
        }
        return named.min { distance($0.1, value) < distance($1.1, value) }?.0
    }
}
