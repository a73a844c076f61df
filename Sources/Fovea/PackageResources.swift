import Foundation

/// Files shipped in the `Fovea` target's resource bundle (`Resources/`).
///
/// SwiftPM's generated `Bundle.module` stops the process with `fatalError`
/// when the bundle is not beside the executable (a binary copied elsewhere).
/// This looks in the same places, and a few more, and lets callers throw instead.
enum PackageResources {
    /// The bundle SwiftPM builds for the `Fovea` target of the `Fovea` package:
    /// a plain folder on Linux, a bundle on Darwin.
    static let bundleNames = ["Fovea_Fovea.resources", "Fovea_Fovea.bundle"]

    /// Where bundles are looked for: the main bundle's folder (an executable's
    /// folder on Linux, where SwiftPM puts the bundle), the executable's real
    /// folder behind a symlink, and the folders of loaded bundles (`.xctest`).
    static var searchDirectories: [URL] {
        var directories = [Bundle.main.bundleURL]
        if let executable = Bundle.main.executableURL {
            directories.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        directories += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        var seen = Set<String>()
        return directories.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// The bundle holding Fovea's resources, or `nil` if it is not installed.
    static let bundle: Bundle? = {
        for directory in searchDirectories {
            for name in bundleNames {
                let url = directory.appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: url.path), let bundle = Bundle(url: url) { return bundle }
            }
        }
        return nil
    }()

    /// The resource file `name` (with its extension), or `nil` if it is missing.
    static func url(forResource name: String) -> URL? {
        bundle?.url(forResource: name, withExtension: nil)
    }

    /// What to do when the bundle is missing, for error messages.
    static var missingBundleAdvice: String {
        "install Fovea's resource folder \(bundleNames[0]) (\(bundleNames[1]) on macOS) from the build folder next to the executable (\(Bundle.main.bundleURL.path))"
    }
}
