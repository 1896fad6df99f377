import Countdowns
import Foundation
import Mustache
import Synchronization

/// The web app's Mustache templates (resources in `WebApp/Templates`) in each
/// language (`WebWords`, from `WebApp/Words`). The template files are read once
/// at start and English is compiled then, so a broken template or a missing
/// English text stops the server at start; another language is compiled the
/// first time a page is asked for in it, and kept: a server whose users speak
/// one language holds one set. Every page extends `layout`; values are
/// HTML-escaped by Mustache unless a template asks otherwise (only the
/// server-made QR SVG and chart do).
package final class WebPages: Sendable {
    /// One language's words and its compiled templates.
    package struct Localized: Sendable {
        package let words: WebWords
        package let library: MustacheLibrary
    }

    /// Template name → text, with its `{{t.key}}` markers.
    private let templates: [String: String]
    private let wordsFolder: String
    package let english: Localized
    private let compiled: Mutex<[String: Localized]>

    package struct Missing: Error, CustomStringConvertible {
        package var description: String
    }

    private init(templates: [String: String], wordsFolder: String) throws {
        self.templates = templates
        self.wordsFolder = wordsFolder
        english = try Self.compile(templates, words: try WebWords.load(.english, from: wordsFolder, over: nil))
        compiled = Mutex([Language.english.code: english])
    }

    /// Reads every `.mustache` file of the FeedServer resource bundle. A missing
    /// bundle (the binary copied without `tminus_Pages.resources`) is an error
    /// at start, never a crash at the first page.
    package static func load() throws -> WebPages {
        guard let folder = resourceFolder("Templates"), let words = resourceFolder("Words") else {
            throw Missing(description: "the web app's templates were not found: install them in /usr/share/tminus/tminus_Pages.resources, or keep tminus_Pages.resources next to the tminus binary")
        }
        var templates: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".mustache") {
            templates[String(file.dropLast(".mustache".count))] = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
        }
        return try WebPages(templates: templates, wordsFolder: words)
    }

    private static func compile(_ templates: [String: String], words: WebWords) throws -> Localized {
        var library = MustacheLibrary()
        for (name, text) in templates.sorted(by: { $0.key < $1.key }) {
            try library.register(try words.localize(text, named: name), named: name)
        }
        return Localized(words: words, library: library)
    }

    /// The pages in `language`, compiled on first use. A table that cannot be
    /// read (a broken install) shows that language in English rather than failing the page.
    package func localized(_ language: Language) -> Localized {
        if let ready = compiled.withLock({ $0[language.code] }) { return ready }
        let made = (try? Self.compile(templates, words: try WebWords.load(language, from: wordsFolder, over: english.words))) ?? english
        return compiled.withLock { cache in
            if let raced = cache[language.code] { return raced }
            cache[language.code] = made
            return made
        }
    }

    /// Every language compiled, as a test checks them.
    package func compileAll() throws {
        for language in Language.all where language != .english {
            _ = try Self.compile(templates, words: try WebWords.load(language, from: wordsFolder, over: english.words))
        }
    }

    /// A folder of this target's resources (`ResourceFolder`: the install prefix's
    /// share folder, beside the binary, or the build folder).
    package static func resourceFolder(_ name: String) -> String? {
        ResourceFolder.find(name, in: "tminus_Pages.resources")
    }
}
