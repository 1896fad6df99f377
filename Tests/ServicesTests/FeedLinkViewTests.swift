import Countdowns
import Services
import Testing

/// Which view of a feed each principal reads through the feed links: the
/// decision the public routes used to make themselves (issue #60), now
/// `Authorization.view`, checked here for every principal, on a public and a
/// private feed, its own and another's.
struct FeedLinkViewTests {
    static let principals: [Principal] = [
        .anonymous, .adminToken, .system, .commandLine,
        .feedToken(feed: "family", visibility: .full), .feedToken(feed: "family", visibility: .titles),
        .feedToken(feed: "family", visibility: .busy), .feedToken(feed: "work", visibility: .full),
        .person(PersonAccess(id: 1, login: "anna", isAdmin: false)),
    ]

    static func expected(_ principal: Principal, isPublic: Bool) -> Redaction? {
        switch principal {
        case .anonymous: isPublic ? .classified : nil
        case .adminToken, .system, .commandLine: Redaction.none
        case .feedToken("family", .full): Redaction.none
        case .feedToken("family", .titles): .titles
        case .feedToken("family", .busy): .busy
        default: nil
        }
    }

    @Test(arguments: principals, [true, false])
    func eachPrincipalReadsTheViewItIsAllowed(principal: Principal, isPublic: Bool) {
        #expect(Authorization.view(principal, ofFeed: "family", isPublic: isPublic) == Self.expected(principal, isPublic: isPublic))
    }

    /// A token is its own feed's only: through another feed's address it reads
    /// nothing, public or not (a public feed is read without a token).
    @Test func aTokenOpensNoOtherFeed() {
        for visibility in Visibility.allCases {
            #expect(Authorization.view(.feedToken(feed: "work", visibility: visibility), ofFeed: "family", isPublic: true) == nil)
        }
    }

    /// A link's view never shows more than the use cases would let the same
    /// principal read: a view of the whole feed only where `readFeed` is allowed.
    @Test(arguments: principals)
    func aWholeViewOnlyWhereReadingIsAllowed(principal: Principal) {
        for isPublic in [true, false] where Authorization.view(principal, ofFeed: "family", isPublic: isPublic) == Redaction.none {
            #expect(Authorization.allows(principal, .readFeed("family")))
        }
    }
}
