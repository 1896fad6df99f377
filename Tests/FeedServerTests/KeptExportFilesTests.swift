@testable import Catalog
import Countdowns
import CountdownStore
@testable import FeedServer
import Foundation
import HTTPTypes
import ICalendar
import Logging
import NIOCore
import ServerTestSupport
import Services
import Testing
import TestSupport

/// Issue #41: a feed not in memory answers `.ics` from a file of its kept
/// export, written the first time the store's row was read.
struct KeptExportFilesTests {
    static let logger = Logger(label: "tminus-test")

    static func bytes(_ text: String, etag: String, gzipped: String? = nil) -> KeptExport.Bytes {
        KeptExport.Bytes(body: ByteBuffer(string: text), etag: etag, gzipped: gzipped.map { ByteBuffer(string: $0) },
                         gzippedEtag: gzipped.map { _ in etag + "-gz" })
    }

    static func key(_ slug: String) -> FeedCatalog.CompiledKey { FeedCatalog.CompiledKey(slug: slug, redaction: .none) }

    static func fileNames(_ files: KeptExportFiles) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: files.directory).sorted()
    }

    @Test func aFileIsReadOnlyForTheRevisionAndVariantItWasWrittenFor() throws {
        let parent = try Folder()
        let files = try #require(KeptExportFiles.open(in: parent.path + "/exports", budgetBytes: 1 << 20, logger: Self.logger))
        #expect(files.read(Self.key("a"), revision: 1, variant: "v") == nil)
        files.keep(Self.key("a"), revision: 1, variant: "v", bytes: Self.bytes("BEGIN:VCALENDAR one", etag: "\"1\"", gzipped: "zipped one"))
        let read = try #require(files.read(Self.key("a"), revision: 1, variant: "v"))
        #expect(read.body == ByteBuffer(string: "BEGIN:VCALENDAR one") && read.etag == "\"1\"")
        #expect(read.gzipped == ByteBuffer(string: "zipped one") && read.gzippedEtag == "\"1\"-gz")
        #expect(files.read(Self.key("a"), revision: 2, variant: "v") == nil, "another revision")
        #expect(files.read(Self.key("a"), revision: 1, variant: "w") == nil, "another build or base URL")
        #expect(files.read(Self.key("b"), revision: 1, variant: "v") == nil)
        #expect(files.fileReads == 1)

        // A new revision replaces the file: one file for the feed, the old one gone.
        files.keep(Self.key("a"), revision: 2, variant: "v", bytes: Self.bytes("BEGIN:VCALENDAR two", etag: "\"2\""))
        #expect(files.read(Self.key("a"), revision: 1, variant: "v") == nil)
        let second = try #require(files.read(Self.key("a"), revision: 2, variant: "v"))
        #expect(second.body == ByteBuffer(string: "BEGIN:VCALENDAR two") && second.gzipped == nil && second.gzippedEtag == nil)
        #expect(try Self.fileNames(files).count == 1 && files.usage.files == 1 && files.usage.bytes == 19)
    }

    @Test func filesStayWithinTheirBudget() throws {
        let parent = try Folder()
        let files = try #require(KeptExportFiles.open(in: parent.path, budgetBytes: 30, logger: Self.logger))
        files.keep(Self.key("a"), revision: 1, variant: "v", bytes: Self.bytes(String(repeating: "a", count: 20), etag: "\"a\""))
        files.keep(Self.key("b"), revision: 1, variant: "v", bytes: Self.bytes(String(repeating: "b", count: 20), etag: "\"b\""))
        #expect(files.read(Self.key("a"), revision: 1, variant: "v") != nil)
        #expect(files.read(Self.key("b"), revision: 1, variant: "v") == nil, "past the budget: its misses read the store")
        #expect(files.usage.files == 1 && files.usage.bytes == 20)
        // Replacing a's file counts a's old bytes out first.
        files.keep(Self.key("a"), revision: 2, variant: "v", bytes: Self.bytes(String(repeating: "A", count: 25), etag: "\"A\""))
        #expect(files.read(Self.key("a"), revision: 2, variant: "v")?.body == ByteBuffer(string: String(repeating: "A", count: 25)))
        #expect(try files.usage.bytes == 25 && Self.fileNames(files).count == 1)
    }

    @Test func aFileGoneOrCutShortIsForgottenAndTheStoreAnswers() throws {
        let parent = try Folder()
        let files = try #require(KeptExportFiles.open(in: parent.path, budgetBytes: 1 << 20, logger: Self.logger))
        files.keep(Self.key("a"), revision: 1, variant: "v", bytes: Self.bytes("BEGIN:VCALENDAR a", etag: "\"a\""))
        files.keep(Self.key("b"), revision: 1, variant: "v", bytes: Self.bytes("BEGIN:VCALENDAR b", etag: "\"b\""))
        let names = try Self.fileNames(files)
        #expect(names.count == 2)
        try FileManager.default.removeItem(atPath: files.directory + "/" + names[0])
        try Data("BEGIN".utf8).write(to: URL(fileURLWithPath: files.directory + "/" + names[1]))
        #expect(files.read(Self.key("a"), revision: 1, variant: "v") == nil)
        #expect(files.read(Self.key("b"), revision: 1, variant: "v") == nil)
        #expect(files.usage.files == 0 && files.usage.bytes == 0 && files.fileReads == 0)
        #expect(try Self.fileNames(files).isEmpty)
    }

    /// Only folders named as a server names its own are removed: `--export-files-dir` may name a folder others use.
    @Test func foldersOfStoppedServersAreRemovedAndOneStoppingRemovesItsOwn() throws {
        let parent = try Folder()
        let manager = FileManager.default
        let kept = ["tminus-exports-\(getpid())-7", "2147483646-1", "tminus-exports-2147483646", "tminus-exports-x-1", "someone-elses"]
        for name in kept + ["tminus-exports-2147483646-1"] {
            try manager.createDirectory(atPath: parent.path + "/" + name, withIntermediateDirectories: false)
        }
        try Data("a file".utf8).write(to: URL(fileURLWithPath: parent.path + "/notes.txt"))
        var files = KeptExportFiles.open(in: parent.path, budgetBytes: 1 << 20, logger: Self.logger)
        let own = try #require(files?.directory)
        #expect(try manager.contentsOfDirectory(atPath: parent.path).sorted() == (kept + ["notes.txt", URL(fileURLWithPath: own).lastPathComponent]).sorted(),
                "a stopped server's folder goes; a running one's stays, and nothing else there is touched")
        files?.keep(Self.key("a"), revision: 1, variant: "v", bytes: Self.bytes("BEGIN:VCALENDAR a", etag: "\"a\""))
        files = nil
        #expect(!manager.fileExists(atPath: own))
        #expect(KeptExportFiles.open(in: parent.path, budgetBytes: 0, logger: Self.logger) == nil, "0 turns them off")
    }

    @Test func aFolderThatCannotBeMadeLeavesThemOff() throws {
        let parent = try Folder()
        try Data("a file".utf8).write(to: URL(fileURLWithPath: parent.path + "/taken"))
        #expect(KeptExportFiles.open(in: parent.path + "/taken/exports", budgetBytes: 1 << 20, logger: Self.logger) == nil)
    }

    /// The server end to end: the first miss of a feed not compiled reads the
    /// store's row and writes the file; the next miss reads the file, the same
    /// bytes and validators; a new revision is not answered from the old file.
    @Test func aFeedNotInMemoryIsAnsweredFromItsFileAfterTheFirstMiss() async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        try fixture.feed("family", calendar: ServerFixture.family)
        try fixture.feed("other", calendar: CompileOnDemandTests.days(3))
        let (first, firstTag) = try await fixture.withServer(adjust: { _ in }) { client, parts in
            _ = try await client.text("/feeds/other.ics")
            let (response, body) = try await client.text("/feeds/family.ics")
            await parts.catalog.exports.drain()
            return (body, response.headers[.eTag])
        }
        let exportsFolder = fixture.databasePath + ".exports"
        try FileManager.default.createDirectory(atPath: exportsFolder + "/tminus-exports-2147483646-1", withIntermediateDirectories: true)
        // A render cache of one byte holds only the newest answer: each read of the other feed pushes this one out.
        try await fixture.withServer(adjust: { $0.exportFilesBytes = 1 << 20; $0.cacheBytes = 1 }) { client, parts in
            let files = try #require(parts.catalog.exportFiles)
            #expect(files.directory.hasPrefix(exportsFolder + "/") && !FileManager.default.fileExists(atPath: exportsFolder + "/tminus-exports-2147483646-1"))
            let (response, body) = try await client.text("/feeds/family.ics")
            #expect(response.status == .ok && body == first && response.headers[.eTag] == firstTag && files.fileReads == 0)
            #expect(parts.catalog.compileCount == 0, "read from the store's row")
            #expect(files.usage.files == 1, "written from the store's row")
            _ = try await client.text("/feeds/other.ics")
            #expect(files.usage.files == 2 && files.fileReads == 0)
            let (again, againBody) = try await client.text("/feeds/family.ics")
            #expect(again.status == .ok && againBody == first && again.headers[.eTag] == firstTag)
            #expect(files.fileReads == 1 && parts.catalog.compileCount == 0, "from the file, nothing compiled")
            _ = try await client.text("/feeds/other.ics")
            let (notModified, _) = try await client.text("/feeds/family.ics", headers: [.ifNoneMatch: firstTag ?? ""])
            #expect(notModified.status == .notModified && files.fileReads == 3)

            _ = try await CountdownService(store: parts.store).add(
                Countdown(uid: "new@tests", title: "Brand new", target: .date(CivilDate(year: 2027, month: 4, day: 1))), toFeed: "family")
            await parts.catalog.refresh()
            let (changed, changedBody) = try await client.text("/feeds/family.ics")
            #expect(changed.status == .ok && changedBody.contains("Brand new") && changed.headers[.eTag] != firstTag)
            #expect(files.fileReads == 3 && parts.catalog.compileCount == 1, "the old revision's file is not read")
        }
    }
}

/// A folder of its own in the temporary folder, removed with it.
private final class Folder {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-export-files-\(UUID().uuidString)").path

    init() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
