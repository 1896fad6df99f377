import Catalog
import Services
import Subscriptions
import Synchronization

/// Where the use cases' events land in a running server (`StoreEvents`): a
/// commit brings the catalog up to the store's revisions; a subscription
/// added or removed reloads the loader's list; new rules fetch that source
/// again, in full, before the use case returns. No handler refreshes by hand.
package final class ServerEvents: StoreEvents {
    private let catalog = Mutex<FeedCatalogReference?>(nil)
    private let loader = Mutex<FeedLoaderReference?>(nil)

    package init() {}

    /// Connects the listeners once they exist (they hold the service that publishes here).
    package func connect(catalog: FeedCatalog, loader: FeedLoader) {
        self.catalog.withLock { $0 = FeedCatalogReference(catalog: catalog) }
        self.loader.withLock { $0 = FeedLoaderReference(loader: loader) }
    }

    package func published(_ event: StoreEvent) async {
        let catalog = catalog.withLock { $0?.catalog }
        let loader = loader.withLock { $0?.loader }
        switch event {
        case .committed:
            await catalog?.refresh()
        case .subscriptionsChanged:
            await loader?.reloadSubscriptions()
        case .rulesChanged(let feed, let location):
            await loader?.rulesChanged(feed: feed, location: location)
            await catalog?.refresh()
        }
    }

    /// Weak: the catalog holds the service, which holds these events (the Mutex guards the reference).
    private struct FeedCatalogReference {
        weak var catalog: FeedCatalog?
    }

    /// Weak, like the catalog's: the server's parts own the loader.
    private struct FeedLoaderReference {
        weak var loader: FeedLoader?
    }
}
