import Countdowns
import HTTPSupport
import Hummingbird
import ICalendar

extension LinkTuning {
    /// A calendar link's query, validated before anything is looked up or
    /// cached: a bad value of a parameter `LinkTuning` knows is a 400 naming
    /// it; every other parameter is ignored and reaches no key.
    package init(_ request: Request) throws {
        var pairs: [(name: String, value: String)] = []
        // An empty value is no value: a form sends its empty fields too.
        for (name, value) in request.uri.queryParameters where !value.isEmpty && LinkTuning.parameters.contains(String(name)) {
            pairs.append((String(name), String(value)))
        }
        guard !pairs.isEmpty else { self.init(); return }
        do throws(Invalid) {
            try self.init(pairs) { raw throws(Invalid) -> Zone in
                do { return try ViewerZone.named(raw) } catch {
                    throw Invalid(parameter: "tz", reason: "'\(raw.prefix(ViewerZone.maxLength))' is not a known time zone name (\(ViewerZone.Unknown.hint))")
                }
            }
        } catch {
            throw HTTPError(.badRequest, message: error.description)
        }
    }
}
