import Foundation
import Testing
import TestSupport

/// The built `tminus` binary, run in a folder of its own that is removed afterwards.
struct Tminus {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Runs the binary in the folder; returns its exit status, standard output
    /// and standard error. Awaited, so no thread is held while it runs (`ChildRun`).
    @discardableResult
    func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) async throws -> (status: Int32, out: String, err: String) {
        let result = try await ChildRun.run(try #require(Corpus.tminusBinary), arguments, input: input.map { Data($0.utf8) }, environment: environment,
                                            directory: folder)
        return (result.status, result.out, result.err)
    }

    /// A calendar with one all-day and one timed event, written into the folder.
    func calendar(_ name: String = "in.ics", header: String = "") throws -> String {
        let text = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tminus tests//cli//EN\r\n\(header)BEGIN:VEVENT\r\nUID:all-day@tests\r
            DTSTAMP:20260101T000000Z\r\nSUMMARY:Sports day\r\nDTSTART;VALUE=DATE:20260310\r\nEND:VEVENT\r\nBEGIN:VEVENT\r
            UID:timed@tests\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Concert\r\nDTSTART:20260310T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }
}


