/// The X-properties tminus writes for presentation iCalendar has no standard
/// property for, so that an export re-imports losslessly.
public enum TMinusProperty {
    public static let direction = "X-TMINUS-DIRECTION"
    public static let unit = "X-TMINUS-UNIT"
    public static let gradient = "X-TMINUS-GRADIENT"
    public static let textColor = "X-TMINUS-TEXT-COLOR"
    /// An image reference clients cannot fetch (an uploaded blob).
    public static let image = "X-TMINUS-IMAGE"
    /// `X-TMINUS-FROM;VALUE=DATE:20260901`: when the span a countdown measures
    /// its progress over began (a term's first day).
    public static let from = "X-TMINUS-FROM"
    /// What was changed on the way in (`ItemRepair`): a rule left out, an end
    /// swapped with its start. Kept with the countdown, shown in the app and by
    /// `tminus validate` on an export.
    public static let warning = "X-TMINUS-WARNING"
    /// Calendar level: `X-TMINUS-CATEGORY;X-TMINUS-COLOR=#FF9500:Birthday`.
    public static let category = "X-TMINUS-CATEGORY"
    public static let colorParameter = "X-TMINUS-COLOR"
    /// The title as written, when SUMMARY could not say it: `Anna turns {n}`
    /// behind `SUMMARY:Anna turns` (`Countdown.withoutNumber`), so a re-import
    /// numbers the occurrences again.
    public static let title = "X-TMINUS-TITLE"
}
