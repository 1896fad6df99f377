import Foundation
import Testing

/// Locates `../shared/corpus` beside the clone. CI must have it (`.ci/run`
/// checks); a user's clone does not, and the conformance suites then skip.
public enum Corpus {
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `tminus` executable built beside the test bundle.
    public static var tminusBinary: URL? {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tminus")
        let candidates = [besideTests, packageRoot.appendingPathComponent(".build/debug/tminus")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    public static let root: URL? = {
        let candidates: [String?] = [ProcessInfo.processInfo.environment["TMINUS_CORPUS"],
                                     packageRoot.appendingPathComponent("../shared/corpus").standardizedFileURL.path]
        for case let path? in candidates where FileManager.default.fileExists(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        if ProcessInfo.processInfo.environment["CI"] == nil {
            print("note: ../shared/corpus not found; the conformance suites are skipped")
        }
        return nil
    }()

    /// True in CI, where a missing corpus is a failure rather than a skip.
    public static var required: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    public static var available: Bool { root != nil || required }

    public static func url(_ relative: String) throws -> URL {
        guard let root else {
            throw CorpusMissing()
        }
        return root.appendingPathComponent(relative)
    }

    public static func files(in folder: String) throws -> [URL] {
        let directory = try url(folder)
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix("LICENSE") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    public struct CorpusMissing: Error, CustomStringConvertible {
        public var description: String { "../shared/corpus is missing, and CI requires it" }
    }
}
