import CountdownStore
import Foundation
import PostgresNIO

extension PostgresCountdownStore: FeedChangeNotices {
    /// Every write's NOTIFY reaches the replicas.
    public var changeNotices: (any FeedChangeNotices)? { self }

    /// Listens on `tminus_feed` until the task is cancelled. `connected` runs
    /// each time listening (re)starts: notifications sent while a replica was
    /// cut off are lost, so after a reconnect it must compare every feed's
    /// revision once. `changed` runs for each notification. A lost connection
    /// is retried every `retry`, for as long as it takes.
    public func listenForFeedChanges(retry: Duration, connected: @escaping @Sendable () async -> Void,
                                     changed: @escaping @Sendable (FeedChange) async -> Void) async {
        await running.wait()
        var wasConnected = false
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: FeedChange.channel) { notifications in
                        if wasConnected { self.logger.notice("listening for feed changes again", metadata: ["database": "\(self.location)"]) }
                        wasConnected = true
                        await connected()
                        for try await notification in notifications {
                            if let change = FeedChange(payload: notification.payload) { await changed(change) }
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("lost the connection that listens for feed changes; retrying",
                               metadata: ["database": "\(location)", "error": "\(Self.storeError(error, location: location))"])
            }
            try? await Task.sleep(for: retry)
        }
    }
}
