import Countdowns
import ICalendar

/// Makes the equal values that many countdowns of one feed carry share one
/// copy: a team calendar's attendees and organisers (each with its
/// parameters), its locations, its lists of categories.
///
/// Why: a feed is read row by row, and each row's parse made its own copies.
/// On the 10k benchmark feed, 3,870 ATTENDEE properties hold 240 distinct
/// values (110 bytes each, with CN and ROLE parameters), 10,000 category lists
/// 1,798 distinct ones, 3,894 locations seven. Strings of 15 bytes or fewer
/// are held inline by Swift and are left as they are. A property's source
/// line stays its own; only the allocated values are shared.
///
/// One per read, used on one thread: no lock.
final class SharedValues {
    private var strings: Set<String> = []
    private var parameterLists: Set<[Parameter]> = []
    private var stringLists: Set<[String]> = []

    func share(_ countdown: inout Countdown) {
        if !countdown.extraProperties.isEmpty {
            countdown.extraProperties = countdown.extraProperties.map { property in
                var shared = property
                shared.value = string(property.value)
                if !property.parameters.isEmpty { shared.parameters = parameterLists.insert(property.parameters).memberAfterInsert }
                return shared
            }
        }
        if let location = countdown.location { countdown.location = string(location) }
        if !countdown.categories.isEmpty { countdown.categories = stringLists.insert(countdown.categories).memberAfterInsert }
    }

    private func string(_ value: String) -> String {
        guard value.utf8.count > 15 else { return value }
        return strings.insert(value).memberAfterInsert
    }
}
