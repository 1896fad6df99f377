import Foundation
import Testing

/// Runs Tests/interop/ics_check.py with the interpreter `make test` prepared
/// (TMINUS_PYTHON, a venv with icalendar and recurring-ical-events).
public enum PythonChecker {
    public static let python: String? = {
        guard let path = ProcessInfo.processInfo.environment["TMINUS_PYTHON"],
              FileManager.default.isExecutableFile(atPath: path) else {
            print("note: TMINUS_PYTHON is not set; run `make test` for the independent-parser checks")
            return nil
        }
        return path
    }()

    public static var available: Bool { python != nil || ProcessInfo.processInfo.environment["CI"] != nil }

    public static let script = Corpus.packageRoot.appendingPathComponent("Tests/interop/ics_check.py").path

    /// Runs `script` (ics_check.py unless given) with one JSON request on stdin; returns its JSON answer.
    public static func run(_ request: [String: Any], script: String = script) async throws -> [String: Any] {
        let python = try #require(python, "TMINUS_PYTHON must point at the venv python in CI")
        let result = try await ChildRun.run(URL(fileURLWithPath: python), [script], input: try JSONSerialization.data(withJSONObject: request))
        try #require(result.status == 0, "\(URL(fileURLWithPath: script).lastPathComponent) failed: \(result.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    }
}
