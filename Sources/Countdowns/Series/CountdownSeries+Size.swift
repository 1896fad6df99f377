extension CountdownSeries {
    /// Roughly how many bytes this series holds, for the compiled feeds' byte
    /// budget: fixed parts, the text it carries, and what it keeps expanded.
    /// An estimate on purpose: walking every object would cost more than the
    /// budget saves. Calibrated on a 10,000-countdown feed, whose series came to
    /// about 2.4 KB each in heap profiles (issue #8's note); since issue #41
    /// (rare fields out of line, shared values) they hold 1.88 KB, so this
    /// errs high, which only makes the budget evict a little early.
    public var approximateBytes: Int {
        let text = countdown.uid.utf8.count + countdown.title.utf8.count + (countdown.notes?.utf8.count ?? 0)
            + (countdown.location?.utf8.count ?? 0) + (countdown.url?.utf8.count ?? 0)
            + countdown.categories.reduce(0) { $0 + $1.utf8.count + 16 }
        let components = countdown.overrides.count + countdown.timeZoneDefinitions.count + countdown.extraComponents.count
        return 1_200 + text + kept.count * 120 + keptDates.count * 8 + countdown.extraProperties.count * 160
            + components * 1_024 + (prepared == nil ? 0 : 1_024)
    }
}
