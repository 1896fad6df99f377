import Foundation

/// The days of the week that are not working days: Saturday and Sunday unless
/// a feed says otherwise (`weekend: [fri, sat]` in much of the Middle East).
/// Bits follow `CivilDate.weekday`: Sunday is bit 0, Saturday bit 6.
public struct Weekend: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue & 0x7F }

    public static let sunday = Weekend(rawValue: 1 << 0)
    public static let saturday = Weekend(rawValue: 1 << 6)
    public static let standard: Weekend = [.saturday, .sunday]

    /// Short English names, Sunday first, as feed settings write them.
    public static let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    public init(weekday: Int) { self.init(rawValue: 1 << (((weekday % 7) + 7) % 7)) }

    public func contains(weekday: Int) -> Bool { contains(Weekend(weekday: weekday)) }

    /// How many of the seven days are working days.
    public var workingDaysPerWeek: Int { 7 - rawValue.nonzeroBitCount }

    /// `["sat", "sun"]`: Monday first, as people list them.
    public var dayNames: [String] { [1, 2, 3, 4, 5, 6, 0].filter(contains(weekday:)).map { Self.names[$0] } }

    /// Reads day names: "sat", "Saturday", "SA" (any prefix of two letters or more, any case).
    public static func parse(_ names: [String]) -> Result<Weekend, WeekendError> {
        var weekend: Weekend = []
        for name in names {
            let key = name.trimmingCharacters(in: .whitespaces).lowercased()
            guard key.count >= 2, let day = fullNames.firstIndex(where: { $0.hasPrefix(key) }) else { return .failure(WeekendError(name: name)) }
            weekend.insert(Weekend(weekday: day))
        }
        guard weekend.workingDaysPerWeek > 0 else { return .failure(WeekendError(name: names.joined(separator: ", "), allWeek: true)) }
        return .success(weekend)
    }

    private static let fullNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
}

/// A `weekend:` value that is not a day name, or that leaves no working day.
public struct WeekendError: Error, Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var allWeek = false
    public var description: String {
        allWeek ? "weekend: every day of the week is a weekend day, so nothing could count working days"
            : "weekend: '\(name)' is not a day of the week (use mon, tue, wed, thu, fri, sat, sun)"
    }
}
