import CountdownStore
@testable import FeedServer
import Logging
import ServerTestSupport
import Services
import Synchronization
import Testing

/// Once people exist, the admin token used for feeds is said once in the log
/// to belong to operations; before that, and for health, nothing is said.
struct AdminTokenNoticeTests {
    final class Lines: Sendable {
        let all = Mutex<[String]>([])
    }

    struct Capture: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { lines.all.withLock { $0.append(event.message.description) } }
    }

    @Test func theAdminTokenIsToldOnceToBelongToOperations() async throws {
        let service = CountdownService(store: InMemoryCountdownStore())
        let lines = Lines()
        let notice = AdminTokenNotice(people: service, logger: Logger(label: "test") { _ in Capture(lines: lines) })
        notice.used(for: "/api/feeds")
        notice.finish()
        try await notice.run()
        #expect(lines.all.withLock { $0 }.isEmpty, "no people yet: nothing to move to")
        try await service.addPerson(login: "anna", password: "a long enough password", cost: 4)
        let later = AdminTokenNotice(people: service, logger: Logger(label: "test") { _ in Capture(lines: lines) })
        later.used(for: "/api/health")
        later.used(for: "/api/feeds/family")
        later.used(for: "/api/feeds/family")
        later.finish()
        try await later.run()
        let said = lines.all.withLock { $0 }
        #expect(said.count == 1 && said[0].contains("tminus users token anna"), "\(said)")
    }

    /// Regression (CI, replicas): with PostgreSQL stopped, a write through the
    /// admin token waited for the notice's read to time out before its own,
    /// and the client gave up before the 503. The notice now never waits in the
    /// request: `used(for:)` returns before anything reads the store.
    @Test func aRequestThroughTheAdminTokenNeverWaitsForTheNoticesRead() async throws {
        let store = CountingStore()
        let notice = AdminTokenNotice(people: CountdownService(store: store), logger: Logger(label: "test"))
        notice.used(for: "/api/feeds/team/countdowns")
        #expect(store.reads.withLock { $0 } == 0, "the read is left to the background service")
        notice.finish()
        try await notice.run()
        #expect(store.reads.withLock { $0 } == 1)
    }
}
