import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `-o` never replaces what it should not (issue #23): `tminus format x.ics -o
/// /dev/null` run as root renamed a temporary file over `/dev/null`. These use
/// a FIFO and symlinks in a temporary folder, never the real `/dev/null`.
@Suite(.enabled(if: Corpus.tminusBinary != nil || ProcessInfo.processInfo.environment["CI"] != nil, "tminus binary not built"))
struct OutputFileTests {
    static func kind(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    @Test func aFifoIsWrittenToAndStaysAFifo() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let input = try tminus.calendar()
        let fifo = tminus.path("out.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // The reader: opening a FIFO for writing waits for one.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let pipe = Pipe()
        reader.standardOutput = pipe
        try ChildProcesses.start(reader)
        defer { if reader.isRunning { kill(reader.processIdentifier, SIGKILL); reader.waitUntilExit() } }
        let result = try await tminus.run(["format", input, "-o", fifo])
        #expect(result.status == 0, "\(result.err)")
        // Replaced by a regular file, the FIFO would leave `cat` waiting for ever: stop it first.
        let stillAFifo = Self.kind(fifo) == S_IFIFO
        if !stillAFifo { kill(reader.processIdentifier, SIGKILL) }
        #expect(stillAFifo, "the FIFO was replaced")
        let read = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        if stillAFifo { #expect(read.hasPrefix("BEGIN:VCALENDAR\r\n") && read.hasSuffix("END:VCALENDAR\r\n")) }
    }

    @Test func aSymlinkIsWrittenThroughAndTheFileKeepsItsMode() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let input = try tminus.calendar()
        try FileManager.default.createDirectory(atPath: tminus.path("real"), withIntermediateDirectories: true)
        try "old".write(toFile: tminus.path("real/calendar.ics"), atomically: true, encoding: .utf8)
        #expect(chmod(tminus.path("real/calendar.ics"), 0o640) == 0)
        try FileManager.default.createSymbolicLink(atPath: tminus.path("link.ics"), withDestinationPath: "real/calendar.ics")
        let result = try await tminus.run(["format", input, "-o", "link.ics"])
        #expect(result.status == 0, "\(result.err)")
        #expect(Self.kind(tminus.path("link.ics")) == S_IFLNK, "the link was replaced")
        let written = try String(contentsOfFile: tminus.path("real/calendar.ics"), encoding: .utf8)
        #expect(written.hasPrefix("BEGIN:VCALENDAR\r\n"))
        let mode = (try FileManager.default.attributesOfItem(atPath: tminus.path("real/calendar.ics"))[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tminus.path("real")) == ["calendar.ics"], "a temporary file was left")
    }

    @Test func aLinkToAFileNotYetThereCreatesTheFile() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let input = try tminus.calendar()
        try FileManager.default.createSymbolicLink(atPath: tminus.path("latest.ics"), withDestinationPath: tminus.path("made.ics"))
        #expect(try await tminus.run(["format", input, "-o", tminus.path("latest.ics")]).status == 0)
        #expect(Self.kind(tminus.path("latest.ics")) == S_IFLNK)
        #expect(Self.kind(tminus.path("made.ics")) == S_IFREG)
    }

    @Test func aDashIsStandardOutputAndAFolderIsRefused() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let input = try tminus.calendar()
        let dash = try await tminus.run(["format", input, "-o", "-"])
        #expect(dash.status == 0)
        #expect(dash.out.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(Self.kind(tminus.path("-")) == 0, "a file named '-' was made")
        let folder = try await tminus.run(["format", input, "-o", tminus.folder.path])
        #expect(folder.status != 0)
        #expect(folder.err.contains("is a folder"), "\(folder.err)")
    }

    @Test func exportWritesThroughASymlinkToo() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let database = tminus.path("db.sqlite")
        #expect(try await tminus.run(["add", "Sports day", "--date", "2030-06-12", "--feed", "school", "--db", database]).status == 0)
        try "old".write(toFile: tminus.path("school.ics"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: tminus.path("published.ics"), withDestinationPath: "school.ics")
        let result = try await tminus.run(["export", "--feed", "school", "-o", "published.ics", "--db", database])
        #expect(result.status == 0, "\(result.err)")
        #expect(Self.kind(tminus.path("published.ics")) == S_IFLNK)
        #expect(try String(contentsOfFile: tminus.path("school.ics"), encoding: .utf8).contains("SUMMARY:Sports day"))
    }
}
