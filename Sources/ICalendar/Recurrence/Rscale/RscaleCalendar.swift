import Foundation

/// A calendar system an RSCALE rule part names (RFC 7529, with CLDR's names).
/// tminus expands these rules itself (`RscaleExpander`) rather than through
/// libical 3.0.16, whose RSCALE arithmetic gets Chinese years wrong. Most
/// calendars come from ICU through Foundation; the Hebrew one is computed by
/// its rules (`HebrewCalendarArithmetic`), since ICU misplaces a year of it.
public struct RscaleCalendar: Sendable, Hashable, CustomStringConvertible {
    /// The RSCALE value, upper-case ("CHINESE", "ISLAMIC-CIVIL").
    public let name: String
    let arithmetic: any CalendarArithmetic

    /// The RSCALE names and the ICU calendars behind them. Left out: ETHIOAA and
    /// VIETNAMESE, which Foundation on Linux silently reads as Gregorian, and
    /// ISLAMIC-RGSA, which it lacks.
    static let icuIdentifiers: [String: Calendar.Identifier] = [
        "GREGORIAN": .gregorian, "CHINESE": .chinese, "DANGI": .dangi,
        "ISLAMIC": .islamic, "ISLAMIC-CIVIL": .islamicCivil, "ISLAMIC-TBLA": .islamicTabular, "ISLAMIC-UMALQURA": .islamicUmmAlQura,
        "PERSIAN": .persian, "INDIAN": .indian, "ETHIOPIC": .ethiopicAmeteMihret, "COPTIC": .coptic,
        "BUDDHIST": .buddhist, "JAPANESE": .japanese, "ROC": .republicOfChina,
    ]

    /// Every RSCALE value tminus expands, sorted.
    public static let supportedNames: [String] = (Array(icuIdentifiers.keys) + ["HEBREW"]).sorted()

    /// Whether tminus expands `name`, without building its calendar.
    public static func supports(_ name: String) -> Bool { supportedNames.contains(name.uppercased()) }

    public init?(named name: String) {
        let key = name.uppercased()
        if key == "HEBREW" {
            arithmetic = HebrewCalendarArithmetic()
        } else if let identifier = Self.icuIdentifiers[key] {
            arithmetic = ICUCalendarArithmetic(identifier)
        } else {
            return nil
        }
        self.name = key
    }

    public var description: String { name }

    public static func == (lhs: RscaleCalendar, rhs: RscaleCalendar) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// `date` in this calendar: the month as RFC 7529 numbers it, and the day.
    public func month(of date: CivilDate) -> (month: RscaleMonth, day: Int) { arithmetic.month(of: date) }

    /// Whole years of this calendar from `from` to `to`, by year numbers (an
    /// age counted in Chinese or Hebrew years, as `{n}` counts Gregorian ones).
    public func yearsBetween(_ from: CivilDate, _ to: CivilDate) -> Int { arithmetic.yearsBetween(from, to) }
}
