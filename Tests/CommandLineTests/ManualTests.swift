import Foundation
import Testing
import TestSupport

/// Issue #40: the README is a front page, and the rest is a guide in `docs/`,
/// one page per task, each starting with what a person wants to do; no link
/// in either points at a file that is not there.
struct ManualTests {
    static let root = Corpus.packageRoot

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static var pages: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? [])
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    @Test func theReadmeIsAFrontPageUnder300Lines() throws {
        let readme = try Self.text("README.md")
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count < 300)
        for section in ["## Two commands", "## A five-minute tour", "## Installing", "## The guide"] {
            #expect(readme.contains("\n\(section)"), "the front page has \(section)")
        }
        for page in Self.pages { #expect(readme.contains("](\(page))"), "the README's guide lists \(page)") }
        #expect(Self.pages.count >= 9)
    }

    @Test func eachPageStartsWithWhatAPersonWantsToDo() throws {
        for page in Self.pages {
            let lines = try Self.text(page).split(separator: "\n", omittingEmptySubsequences: true)
            #expect(lines.first?.hasPrefix("# ") == true, "\(page) has a title")
            #expect(lines.dropFirst().first?.hasPrefix("You want") == true, "\(page) starts with what a person wants: \(lines.dropFirst().first ?? "")")
        }
    }

    @Test func everyLinkToAFileResolves() throws {
        for file in ["README.md"] + Self.pages {
            let folder = Self.root.appendingPathComponent(file).deletingLastPathComponent()
            for match in try Self.text(file).matches(of: /\]\(([^)#:]+)(#[^)]*)?\)/) {
                let target = folder.appendingPathComponent(String(match.output.1)).standardizedFileURL.path
                #expect(FileManager.default.fileExists(atPath: target), "\(file) links to \(match.output.1), which is not there")
            }
        }
    }

    /// Issue #63, 4: docs/running.md named 0.11.0 files in a 0.15.0 program.
    /// Every file or image the guide names by version is the program's.
    @Test func theGuideNamesTheProgramsOwnVersion() throws {
        let version = try #require(try Self.text("Sources/tminus/Version.swift").firstMatch(of: /static let release = "([0-9.]+)"/).map { String($0.1) })
        for file in ["README.md"] + Self.pages {
            for match in try Self.text(file).matches(of: /tminus[_:-]([0-9]+\.[0-9]+\.[0-9]+)/) {
                #expect(String(match.1) == version, "\(file) names \(match.0), but the program is \(version)")
            }
        }
    }
}
