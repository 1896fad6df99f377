import CountdownStore
import Logging
import Services
import Synchronization
import Testing
@testable import FeedServer

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
        await notice.used(for: "/api/feeds")
        #expect(lines.all.withLock { $0 }.isEmpty, "no people yet: nothing to move to")
        try await service.addPerson(login: "anna", password: "a long enough password", cost: 4)
        let later = AdminTokenNotice(people: service, logger: Logger(label: "test") { _ in Capture(lines: lines) })
        await later.used(for: "/api/health")
        #expect(lines.all.withLock { $0 }.isEmpty, "health is an operation")
        await later.used(for: "/api/feeds/family")
        await later.used(for: "/api/feeds/family")
        let said = lines.all.withLock { $0 }
        #expect(said.count == 1 && said[0].contains("tminus users token anna"), "\(said)")
    }
}
