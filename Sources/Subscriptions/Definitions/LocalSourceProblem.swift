import Foundation

/// Why a feed file's `file:` source cannot be read, said so that the fix is
/// plain: a `feeds/` folder copied without the calendars beside it names the
/// missing file, and where a relative path is read from (issue #40).
package enum LocalSourceProblem {
    package static func problem(at path: String) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return "no file at \(path) (a `file:` is read from the folder of the feed file that names it; copy the calendar there or give its full path)"
        }
        if isFolder.boolValue { return "\(path) is a folder, not a calendar file" }
        return "\(path) cannot be read by this user (check its permissions)"
    }
}
