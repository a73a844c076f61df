import Foundation

/// Files shipped in a target's resource bundle (its `Resources/` folder): the
/// `Fovea` target's ImageNet labels, the `FoveaTools` target's conformance manifest.
///
/// SwiftPM's generated `Bundle.module` stops the process with `fatalError`
/// when the bundle is not beside the executable (a binary copied elsewhere).
/// This looks in the same places, and a few more, and lets callers throw instead.
package struct PackageResources: Sendable {
    /// The bundle names SwiftPM gives the target's resources in the `Fovea`
    /// package: a plain folder on Linux, a bundle on Darwin.
    package let bundleNames: [String]

    /// The resources of `target` of the `Fovea` package.
    package init(target: String) {
        bundleNames = ["Fovea_\(target).resources", "Fovea_\(target).bundle"]
    }

    /// The `Fovea` target's resources.
    package static let fovea = PackageResources(target: "Fovea")

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

    /// The bundle holding the target's resources, or `nil` if it is not installed.
    /// Looked up on each call: callers read a resource once and keep it.
    package var bundle: Bundle? {
        for directory in Self.searchDirectories {
            for name in bundleNames {
                let url = directory.appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: url.path), let bundle = Bundle(url: url) { return bundle }
            }
        }
        return nil
    }

    /// The resource file `name` (with its extension), or `nil` if it is missing.
    package func url(forResource name: String) -> URL? {
        bundle?.url(forResource: name, withExtension: nil)
    }

    /// What to do when the bundle is missing, for error messages.
    package var missingBundleAdvice: String {
        "install Fovea's resource folder \(bundleNames[0]) (\(bundleNames[1]) on macOS) from the build folder next to the executable (\(Bundle.main.bundleURL.path))"
    }
}
