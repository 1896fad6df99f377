import Foundation

/// Finds a folder of a target's resources without `Bundle.module`, which traps
/// when the bundle is missing and knows only the build folder. In order:
/// 1. the install prefix's share folder: `/usr/bin/tminus` reads
///    `/usr/share/tminus/<bundle>/<folder>` (the Debian package installs them there);
/// 2. beside the binary: `<dir of tminus>/<bundle>/<folder>` (a release build
///    copied with its bundles, or `.build/release`);
/// 3. where the test runner's bundle sits in the build folder.
public enum ResourceFolder {
    public static func find(_ folder: String, in bundle: String) -> String? {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let directory = executable.deletingLastPathComponent()
            candidates.append(directory.deletingLastPathComponent().appendingPathComponent("share/tminus").appendingPathComponent(bundle))
            candidates.append(directory.appendingPathComponent(bundle))
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(bundle))
        // Test runners live in a .xctest bundle inside the build folder.
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(bundle))
        for candidate in candidates {
            let path = candidate.appendingPathComponent(folder).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return path }
        }
        return nil
    }
}
