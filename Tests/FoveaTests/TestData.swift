import Foundation
import XCTest
@_spi(Internals) @testable import Fovea

/// Paths to the shared test data (`../shared/models` beside the checkout) and the built tools.
enum TestData {
    /// The package root: this file is `<root>/Tests/FoveaTests/TestData.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let models = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/models").path

    static func model(_ name: String) -> String { "\(models)/\(name)" }
    static func photo(_ name: String) -> String { "\(models)/photos/\(name)" }

    static let photoNames = ["red_panda", "chelsea_cat", "coffee", "rocket"]

    /// Little-endian float32 file contents.
    static func floats(at path: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { raw in
            (0..<data.count / 4).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    /// `expected_top5.json`: photo file → model → [(index, label)].
    static func expectedTop5() throws -> [String: [String: [(index: Int, label: String)]]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: model("expected_top5.json")))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: [String: [[String: Any]]]])
        return json.mapValues { models in
            models.mapValues { entries in entries.compactMap { e in (e["index"] as? Int).map { ($0, e["label"] as? String ?? "") } } }
        }
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fovea-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The directory holding the built products (`fovea`), next to the test bundle.
    static var productsDirectory: URL {
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
    }

    /// Runs the `fovea` executable; returns exit status, standard output and standard error.
    static func runFovea(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("fovea")
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting so a full pipe cannot block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}
