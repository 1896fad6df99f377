import CountdownStore
import Services

extension CountdownStore {
    /// The use cases over this store: how the tests write, as the server and CLI do.
    package var service: CountdownService { CountdownService(store: self) }
}
