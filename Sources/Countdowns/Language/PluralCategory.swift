/// CLDR's plural categories. A language uses some of them: English one and
/// other, Polish and Russian also few and many, Arabic all six, Japanese only other.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable, Codable, CodingKeyRepresentable {
    case zero, one, two, few, many, other
}
