extension Int {
    /// "1 feed", "2 feeds": the command line's English counts its nouns
    /// (issue #40 saw "1 countdowns" and "677 event(s)").
    func counted(_ singular: String, _ plural: String? = nil) -> String {
        "\(self) " + (self == 1 ? singular : plural ?? singular + "s")
    }
}
