import Hummingbird

/// Another server on loopback that a feed subscribes to: a calendar, a
/// failure, a login, whatever the routes answer. Tests start it with
/// `.test(.live)` and read its port.
package enum SourceServer {
    package static func serving(_ routes: (Router<BasicRequestContext>) -> Void) -> some ApplicationProtocol {
        let router = Router()
        routes(router)
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }
}
