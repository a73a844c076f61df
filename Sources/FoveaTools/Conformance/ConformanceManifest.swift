import Foundation
@_spi(Internals) import Fovea
import FoveaCore

/// The allow-list of ONNX backend node tests Fovea runs, and the written
/// reason for every test of a supported operator that it leaves out.
///
/// The text format, one entry per line:
/// ```
/// test_relu                                   # listed: must pass
/// - test_add_uint8: uint8 tensors are not supported   # omitted, with its reason
/// ```
/// Blank lines and lines starting with `#` are comments.
///
/// Fovea's own manifest is the resource file `Resources/onnx-conformance-manifest.txt`.
public struct ConformanceManifest: Sendable, Equatable {
    /// Tests that must pass, in manifest order.
    public var listed: [String]
    /// Tests left out, with the reason.
    public var omitted: [(name: String, reason: String)]

    public static func == (a: Self, b: Self) -> Bool {
        a.listed == b.listed && a.omitted.map(\.name) == b.omitted.map(\.name) && a.omitted.map(\.reason) == b.omitted.map(\.reason)
    }

    /// Parses the manifest text format.
    public init(parsing text: String) throws {
        listed = []
        omitted = []
        var seen = Set<String>()
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let name: String
            if line.hasPrefix("- ") {
                guard let colon = line.firstIndex(of: ":") else {
                    throw FoveaError(.invalidArgument, "conformance manifest line \(number + 1): an omitted test needs ': reason'")
                }
                name = line[line.index(line.startIndex, offsetBy: 2)..<colon].trimmingCharacters(in: .whitespaces)
                let reason = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                guard !reason.isEmpty else {
                    throw FoveaError(.invalidArgument, "conformance manifest line \(number + 1): the reason for omitting \(name) is empty")
                }
                omitted.append((name, reason))
            } else {
                guard !line.contains(" ") else {
                    throw FoveaError(.invalidArgument, "conformance manifest line \(number + 1): expected a test name, found '\(line)'")
                }
                name = line
                listed.append(name)
            }
            guard seen.insert(name).inserted else {
                throw FoveaError(.invalidArgument, "conformance manifest line \(number + 1): \(name) appears twice")
            }
        }
    }

    /// The resource file of Fovea's manifest.
    static let foveaResource = "onnx-conformance-manifest.txt"

    /// Fovea's manifest, read from the FoveaTools resource bundle.
    ///
    /// - Throws: `.io` if the bundle (`Fovea_FoveaTools.resources` on Linux)
    ///   was not installed beside the executable; a parse error, located at the file.
    public static func fovea() throws -> ConformanceManifest {
        let resources = PackageResources(target: "FoveaTools")
        guard let url = resources.url(forResource: foveaResource) else {
            throw FoveaError(.io, "Fovea's ONNX conformance manifest (\(foveaResource)) is missing: \(resources.missingBundleAdvice)")
        }
        let text = try FileContents.read(url.path, expected: "a conformance manifest")
        return try FoveaError.at(.init(file: url.path)) { try ConformanceManifest(parsing: String(decoding: text, as: UTF8.self)) }
    }
}
