/// Writes a `FeedSnapshot` as exactly the bytes `JSONEncoder.tminus` writes
/// (sorted keys, nil fields left out, slashes not escaped), straight into a
/// byte array.
///
/// Why a second writer: `/feeds/{slug}.json` is rendered again every minute,
/// and for a 10,000-countdown feed Foundation's encoder spent about 0.3 s of
/// each render building a dictionary per object and sorting its keys. This
/// writer takes a few milliseconds. `JSONEncoder.tminus` stays the
/// specification: `FeedSnapshotJSONTests` holds the two byte for byte equal,
/// escapes included, so a field added to the snapshot without being added here
/// fails the tests.
public enum FeedSnapshotJSON {
    public static func bytes(_ snapshot: FeedSnapshot) -> [UInt8] {
        var out = JSONBytes()
        out.bytes.reserveCapacity(256 + snapshot.countdowns.count * 640)
        out.open()
        out.key("countdowns", first: true)
        out.raw("[")
        for (index, countdown) in snapshot.countdowns.enumerated() {
            if index > 0 { out.raw(",") }
            write(countdown, to: &out)
        }
        out.raw("]")
        out.key("feed"); out.string(snapshot.feed)
        out.key("generatedAt"); out.string(snapshot.generatedAt)
        out.key("name"); out.string(snapshot.name)
        if let next = snapshot.next { out.key("next"); out.string(next) }
        out.key("tasks")
        out.open()
        out.key("dueThisWeek", first: true); out.int(snapshot.tasks.dueThisWeek)
        out.key("dueToday"); out.int(snapshot.tasks.dueToday)
        out.key("overdue"); out.int(snapshot.tasks.overdue)
        out.close()
        out.key("timeZone"); out.string(snapshot.timeZone)
        out.key("total"); out.int(snapshot.total)
        out.key("version"); out.int(snapshot.version)
        out.close()
        return out.bytes
    }

    /// The keys in the order `.sortedKeys` puts them.
    private static func write(_ c: CountdownSnapshot, to out: inout JSONBytes) {
        out.open()
        out.key("allDay", first: true); out.bool(c.allDay)
        out.key("amount"); out.int(c.amount)
        out.key("breakdown")
        out.open()
        out.key("days", first: true); out.int(c.breakdown.days)
        out.key("hours"); out.int(c.breakdown.hours)
        out.key("minutes"); out.int(c.breakdown.minutes)
        out.key("months"); out.int(c.breakdown.months)
        out.key("years"); out.int(c.breakdown.years)
        out.close()
        out.key("categories"); out.strings(c.categories)
        out.key("colors")
        out.open()
        out.key("gradient", first: true); out.strings(c.colors.gradient)
        if let text = c.colors.text { out.key("text"); out.string(text) }
        out.close()
        out.key("date"); out.string(c.date)
        out.key("days"); out.int(c.days)
        out.key("direction"); out.string(c.direction)
        if let id = c.id { out.key("id"); out.int(Int(id)) }
        if let image = c.image { out.key("image"); out.string(image) }
        out.key("kind"); out.string(c.kind)
        if let location = c.location { out.key("location"); out.string(location) }
        if let notes = c.notes { out.key("notes"); out.string(notes) }
        if let number = c.occurrenceNumber { out.key("occurrenceNumber"); out.int(number) }
        if let priority = c.priority { out.key("priority"); out.int(priority) }
        if let progress = c.progress { out.key("progress"); out.number(progress) }
        out.key("rawTitle"); out.string(c.rawTitle)
        out.key("repeats"); out.string(c.repeats)
        if let start = c.start { out.key("start"); out.string(start) }
        out.key("state"); out.string(c.state)
        out.key("status"); out.string(c.status)
        out.key("text"); out.string(c.text)
        out.key("title"); out.string(c.title)
        out.key("uid"); out.string(c.uid)
        out.key("unit"); out.string(c.unit)
        if let url = c.url { out.key("url"); out.string(url) }
        out.key("workdays"); out.int(c.workdays)
        out.close()
    }
}
