import CLibical

extension LocalDateTime {
    /// A floating libical time; zones are applied by tminus, not by libical.
    func icalTime(isDate: Bool) -> icaltimetype {
        var time = icaltime_null_time()
        time.year = Int32(date.year)
        time.month = Int32(date.month)
        time.day = Int32(date.day)
        time.is_date = isDate ? 1 : 0
        if !isDate {
            time.hour = Int32(hour)
            time.minute = Int32(minute)
            time.second = Int32(second)
        }
        return time
    }

    init?(icalTime time: icaltimetype) {
        guard icaltime_is_null_time(time) == 0 else { return nil }
        self.init(year: Int(time.year), month: Int(time.month), day: Int(time.day),
                  hour: time.is_date != 0 ? 0 : Int(time.hour),
                  minute: time.is_date != 0 ? 0 : Int(time.minute),
                  second: time.is_date != 0 ? 0 : Int(time.second))
    }
}
