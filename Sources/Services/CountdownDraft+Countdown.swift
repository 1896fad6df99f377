import Countdowns

extension CountdownDraft {
    /// The countdown this draft stands for: `existing` with the draft's fields
    /// applied, or a new one with a random UID. Every front end (the admin API,
    /// the web app's form, `tminus add`) turns its draft into a countdown here.
    public func countdown(editing existing: Countdown?, feedZone: String) throws(Invalid) -> Countdown {
        if var edited = existing {
            try apply(to: &edited, feedZone: feedZone)
            return edited
        }
        var generator = SystemRandomNumberGenerator()
        return try makeCountdown(uid: StableUID.generate(using: &generator), feedZone: feedZone)
    }
}
