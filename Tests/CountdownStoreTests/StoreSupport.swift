import Foundation
import Synchronization
@testable import CountdownStore
import TestSupport

/// A clock tests move by hand, so that "now" is the same for the store and the assertions.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    func set(_ date: Date) { current.withLock { $0 = date } }
}

/// A store on a real SQLite file in a fresh temporary folder.
struct TemporaryStore {
    let directory: URL
    let path: String
    let clock = TestClock()
    let store: CountdownStore

    init(limits: StoreLimits = StoreLimits()) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("tminus.sqlite").path
        let clock = self.clock
        store = try CountdownStore(path: path, limits: limits, clock: { clock.now })
    }

    /// Every row of every table, as text: equal dumps mean an unchanged database.
    func dump() throws -> String {
        try store.pool.read { db in
            var out = ""
            for table in ["feed", "source", "countdown", "category", "countdownCategory", "image"] {
                for row in try GRDBRows.all(db, table) { out += "\(table): \(row)\n" }
            }
            return out
        }
    }

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Corpus.packageRoot.appendingPathComponent("Tests/CountdownStoreTests/Fixtures/\(name)"))
    }
}
