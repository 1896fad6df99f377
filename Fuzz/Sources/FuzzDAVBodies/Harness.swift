import CalDAV
import Foundation

/// What a calendar app sends in a request body, read as each method reads
/// it, and the paths and tokens it names: refused or read, never a crash.
// Also exported under libFuzzer's name, which its runtime refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDAVBodies(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let body = Data(UnsafeBufferPointer(start: data, count: count))
    _ = try? PropfindBody.parse(body)
    if case .multiget(_, let hrefs)? = try? ReportBody.parse(body) {
        for href in hrefs { _ = DAVPath(href)?.href }
    }
    _ = try? PropertyUpdate.parse(body, root: .d("propertyupdate"))
    _ = try? PropertyUpdate.parse(body, root: .c("mkcalendar"))
    let text = String(decoding: body, as: UTF8.self)
    _ = DAVPath(text)
    _ = SyncToken(text)
    return 0
}
