import Foundation
import Testing

/// `tminus feeds add --set key=value`: any setting, written as a feed file
/// writes it, checked by the same rules; a refused one creates nothing.
struct FeedSettingsCommandTests {
    @Test func anySettingIsSetAsAFeedFileWritesIt() async throws {
        let tminus = try Tminus()
        defer { tminus.remove() }
        let database = tminus.path("db.sqlite")
        let made = try await tminus.run(["feeds", "add", "exams", "--db", database, "--set", "sort=title", "--set", "public=false",
                                         "--set", "countdown={mode: milestones, milestones: [30, 7, 1]}", "--set", "categories={Maths: '#00AA00'}"])
        #expect(made.status == 0, "\(made.err)")
        let listed = try await tminus.run(["feeds", "--db", database, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]])
        let settings = try #require(json.first?["settings"] as? [String: Any])
        #expect(settings["sort"] as? String == "title" && settings["public"] as? Bool == false, "\(settings)")
        #expect((settings["countdown"] as? [String: Any])?["milestones"] as? [Int] == [30, 7, 1], "\(settings)")
        #expect(settings["categories"] as? [String: String] == ["Maths": "#00AA00"], "\(settings)")

        for (assignment, says) in [("sorting=title", "'sorting' is not a feed setting"), ("public=maybe", "public must be true or false"),
                                   ("countdown={mode: weekly}", "must be daily or milestones"), ("weekend=[xx]", "'xx' is not a day of the week"),
                                   ("sort", "write it as key=value")] {
            let refused = try await tminus.run(["feeds", "add", "other", "--db", database, "--set", assignment])
            #expect(refused.status != 0 && refused.err.contains(says), "\(assignment): \(refused.err)")
        }
        let feeds = try await tminus.run(["feeds", "--db", database])
        #expect(!feeds.out.contains("other"), "a refused feed is not created: \(feeds.out)")
    }
}
