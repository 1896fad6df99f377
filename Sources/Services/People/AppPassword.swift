/// An app password's form: twenty letters and digits in groups of four
/// (`abcd-efgh-jkmn-pqrs-tuvw`, 100 bits), easy to type on a phone: no `l`,
/// `o`, `0` or `1` to mistake, and read without the dashes, spaces or capitals
/// a person may add. Being random, it is kept as its SHA-256 (no bcrypt).
public enum AppPassword {
    static let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")

    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let letters = (0..<20).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return stride(from: 0, to: 20, by: 4).map { String(letters[$0..<$0 + 4]) }.joined(separator: "-")
    }

    /// What is hashed: lower case, without dashes or spaces (an API token is left as it is).
    public static func normalized(_ password: String) -> String {
        guard !password.hasPrefix("tmp_") else { return password }
        return String(password.lowercased().filter { $0 != "-" && $0 != " " })
    }
}
