/// The type a property's value must have, for the properties whose value tminus
/// reads but can do without: a value that fails it is reported by the validator
/// ("ignored") and left out by `ItemRepair`, so the two always agree.
enum ValueProblem {
    /// Properties that hold one DATE-TIME stamp.
    static let stamps: Set<String> = ["DTSTAMP", "CREATED", "LAST-MODIFIED", "COMPLETED"]

    /// Properties a VEVENT or VTODO holds at most once (RFC 5545 3.6.1, 3.6.2); tminus reads the first.
    static let once: Set<String> = [
        "UID", "DTSTAMP", "DTSTART", "DTEND", "DUE", "DURATION", "RECURRENCE-ID", "SUMMARY", "DESCRIPTION", "LOCATION",
        "CLASS", "CREATED", "LAST-MODIFIED", "GEO", "ORGANIZER", "PRIORITY", "SEQUENCE", "STATUS", "TRANSP", "URL",
        "COMPLETED", "PERCENT-COMPLETE", "COLOR",
    ]

    /// Where the second and later copies of each property `once` names are.
    static func repeated(in component: Component) -> [Int] {
        var seen = Set<String>()
        return component.properties.indices.filter { once.contains(component.properties[$0].name) && !seen.insert(component.properties[$0].name).inserted }
    }

    /// Why `property`'s value is not of its type (the caller says what it does about it); nil when it is (or the property is not one of these).
    static func problem(with property: Property) -> String? {
        let value = property.value
        switch property.name {
        case _ where stamps.contains(property.name):
            return DateTimeValue(property: property) == nil ? "'\(value.prefix(40))' is not a valid DATE-TIME" : nil
        case "PRIORITY":
            return integer(value, in: 0...9) ? nil : "'\(value.prefix(20))' is not an integer from 0 to 9"
        case "PERCENT-COMPLETE":
            return integer(value, in: 0...100) ? nil : "'\(value.prefix(20))' is not an integer from 0 to 100"
        case "SEQUENCE":
            return Int(value) == nil ? "'\(value.prefix(20))' is not an integer" : nil
        case "GEO":
            return isGeo(value) ? nil : "'\(value.prefix(40))' is not a latitude;longitude pair of numbers"
        default:
            return nil
        }
    }

    private static func integer(_ text: String, in range: ClosedRange<Int>) -> Bool {
        Int(text).map(range.contains) ?? false
    }

    /// RFC 5545 3.8.1.6: two FLOATs, latitude from -90 to 90 and longitude from -180 to 180.
    private static func isGeo(_ text: String) -> Bool {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count == 2, let latitude = float(parts[0]), let longitude = float(parts[1]) else { return false }
        return abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// A FLOAT as RFC 5545 spells it: an optional sign, digits, an optional fraction (no exponent, no "nan").
    private static func float(_ text: Substring) -> Double? {
        var body = text
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        let pieces = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = pieces.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit),
              pieces.count == 1 || (!pieces[1].isEmpty && pieces[1].allSatisfy(\.isASCIIDigit)) else { return nil }
        return Double(text)
    }
}

