import ArgumentParser

/// A size given on the command line: plain bytes (`40000000`) or with a unit
/// (`64M`, `64MiB`, `1G`); units are powers of 1024.
struct ByteCount: ExpressibleByArgument, CustomStringConvertible {
    var bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Int)] = [("GIB", 1 << 30), ("MIB", 1 << 20), ("KIB", 1 << 10), ("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10), ("B", 1)]
        let (number, scale) = units.first { text.hasSuffix($0.0) }.map { (String(text.dropLast($0.0.count)), $0.1) } ?? (text, 1)
        guard let value = Int(number.trimmingCharacters(in: .whitespaces)), value > 0,
              value <= Int.max / scale else { return nil }
        bytes = value * scale
    }

    var description: String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20)M" : "\(bytes)"
    }

    var defaultValueDescription: String { description }
}
