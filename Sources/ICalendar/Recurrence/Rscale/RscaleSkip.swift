/// RFC 7529's SKIP: what a rule does with a date its calendar lacks in some
/// year (the 30th of a 29-day month, a leap month in a common year).
public enum RscaleSkip: String, Sendable, Hashable {
    /// Leave that year out (the default, and RFC 5545's behaviour).
    case omit = "OMIT"
    /// The day before: the month's last day, or for a missing leap month the
    /// month it doubles (5L becomes 5).
    case backward = "BACKWARD"
    /// The day after: the next month's first day, or for a missing leap month
    /// the month after it (5L becomes 6: Adar for a Hebrew Adar I date).
    case forward = "FORWARD"
}
