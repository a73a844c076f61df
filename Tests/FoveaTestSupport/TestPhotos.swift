import Foundation

/// The photos `scripts/gen/test-photos.py` makes from the shared red panda (HEIC,
/// AVIF, WebP, PNG and JPEG variants, a Display P3 chart, hostile files), in
/// `.build/test-photos`: made once, again when the script changes. Nothing is
/// committed or downloaded; the tools come from scripts/ci/install-deps.sh.
public enum TestPhotos {
    /// The package root (this file is Tests/FoveaTestSupport/TestPhotos.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public struct ScriptFailed: Error, CustomStringConvertible {
        public let description: String
    }

    private static let lock = NSLock()

    /// The folder of photos, made now if it is missing or older than the script.
    public static func directory() throws -> URL {
        try lock.withLock {
            let directory = packageRoot.appendingPathComponent(".build/test-photos")
            let script = packageRoot.appendingPathComponent("scripts/gen/test-photos.py")
            let manifest = directory.appendingPathComponent("manifest.json")
            if let made = modified(manifest), let written = modified(script), made > written { return directory }
            try? FileManager.default.removeItem(at: directory)
            let result = try run(["python3", script.path, directory.path])
            guard result.status == 0 else {
                throw ScriptFailed(description: "scripts/gen/test-photos.py failed (exit \(result.status)): \(result.output)")
            }
            return directory
        }
    }

    /// The path of one photo.
    public static func path(_ name: String) throws -> String {
        try directory().appendingPathComponent(name).path
    }

    /// Runs a command found on PATH; returns its exit status and its standard output and error.
    public static func run(_ command: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    private static func modified(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }
}
