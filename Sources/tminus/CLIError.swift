/// An error whose message is the whole story, and the exit status of its kind.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    var status: ExitStatus

    /// `.data` unless said: most refusals are about what the input holds.
    init(_ description: String, status: ExitStatus = .data) {
        self.description = description
        self.status = status
    }
}
