import CLibical

/// Owns one `icalrecur_iterator`. Not Sendable: an iterator lives inside one task.
final class LibicalRecurrenceIterator {
    private let iterator: OpaquePointer
    private let isDate: Bool
    /// The RSCALE string libical strdup()ed while parsing: the iterator keeps a
    /// pointer to it and never frees it, so it is freed here, after the iterator
    /// (a leak found by FuzzRecurrenceRule with `RSCALE=CHINESE;FREQ=YEARLY`).
    private let rscale: UnsafeMutablePointer<CChar>?

    init?(rule: RecurrenceRule, start: LocalDateTime, isDate: Bool) {
        LibicalRuntime.ensure()
        clearLibicalErrno()
        let recurrence = icalrecurrencetype_from_string(rule.text)
        guard recurrence.freq != ICAL_NO_RECURRENCE,
              let iterator = icalrecur_iterator_new(recurrence, start.icalTime(isDate: isDate)) else {
            free(recurrence.rscale)
            return nil
        }
        self.iterator = iterator
        self.isDate = isDate
        rscale = recurrence.rscale
    }

    deinit {
        icalrecur_iterator_free(iterator)
        free(rscale)
    }

    func next() -> LocalDateTime? { LocalDateTime(icalTime: icalrecur_iterator_next(iterator)) }

    /// Moves the iterator to the first occurrence at or after `start`. libical
    /// refuses this for rules with COUNT (returns false); the caller then iterates.
    func jump(to start: LocalDateTime) -> Bool {
        icalrecur_iterator_set_start(iterator, start.icalTime(isDate: isDate)) != 0
    }
}
