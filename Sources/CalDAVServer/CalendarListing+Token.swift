import CalDAV
import Services

extension CalendarListing {
    /// The sync token of the calendar as its reader sees it: the change log's
    /// newest, and the newest of their own parts (`SyncToken.personalId`).
    var token: SyncToken { SyncToken(changeId: newestChange, personalId: newestPersonal) }
}
