/// The unit a countdown shows its amount in.
public enum DisplayUnit: String, Sendable, Hashable, CaseIterable, Codable {
    /// Days up to 99, then months up to 12, then years (the Countdown Widget seed's rule).
    case dynamic
    case days, weeks, months, years
    /// "1y 2mo 3d 4h".
    case detailed
    /// Working days: after today through the target, without the feed's
    /// weekend days and holidays ("12 working days").
    case workdays
}

/// Counting down to the next occurrence, or up since the last one.
public enum Direction: String, Sendable, Hashable, CaseIterable, Codable {
    case down, up
}

/// Kept but marked: cancelled events and completed tasks do not count down.
public enum CountdownStatus: String, Sendable, Hashable, CaseIterable, Codable {
    case active, cancelled, completed
}
