import Fovea
import Foundation
import FoveaServerProtocol

/// Where a served model comes from: a name and a model file, as given by
/// `--model name=path` or found in a model directory.
public struct ModelSource: Sendable, Equatable {
    public var name: String
    public var path: String

    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }

    /// Parses `name=path`; a bare path is named after its file (`squeezenet1.1.onnx` → `squeezenet1.1`).
    public init(argument: String) throws {
        if let equals = argument.firstIndex(of: "=") {
            name = String(argument[..<equals])
            path = String(argument[argument.index(after: equals)...])
        } else {
            path = argument
            name = ((argument as NSString).lastPathComponent as NSString).deletingPathExtension
        }
        try ModelSource.checkName(name)
        guard !path.isEmpty else { throw InferenceError.invalid("--model \(argument): no model file after '='") }
    }

    /// Model names go into URL paths: letters, digits, `-`, `_` and `.`.
    static func checkName(_ name: String) throws {
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw InferenceError.invalid("model name '\(name)': use letters, digits, '-', '_' and '.'")
        }
    }

    static let modelExtensions: Set<String> = ["onnx", "mlmodel"]

    /// The models in a directory laid out as KServe mounts a storage URI at
    /// `/mnt/models`: model files in it (each named after its file), and
    /// folders holding one model file each, directly or in a numbered
    /// version folder as Triton lays them out (`name/1/model.onnx`), each
    /// named after its folder. With `name`, the directory must hold exactly one
    /// model, which gets that name (KServe passes the InferenceService's name).
    public static func scan(directory: String, name: String? = nil) throws -> [ModelSource] {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: directory) else {
            throw InferenceError.invalid("--model-dir \(directory): not a readable directory")
        }
        var found: [ModelSource] = []
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(entry)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if !isDirectory.boolValue {
                if modelExtensions.contains((entry as NSString).pathExtension.lowercased()) {
                    found.append(ModelSource(name: (entry as NSString).deletingPathExtension, path: path))
                }
            } else if let file = modelFile(in: path) {
                found.append(ModelSource(name: entry, path: file))
            }
        }
        guard !found.isEmpty else {
            throw InferenceError.invalid("--model-dir \(directory): no .onnx or .mlmodel file, directly or in a folder per model")
        }
        if let name {
            guard found.count == 1 else {
                throw InferenceError.invalid("--model-name \(name): \(directory) holds \(found.count) models (\(found.map(\.name).joined(separator: ", "))); it names one")
            }
            found[0].name = name
        }
        try found.forEach { try checkName($0.name) }
        return found
    }

    /// The model file in a model's folder or in its highest numbered version folder.
    private static func modelFile(in folder: String) -> String? {
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        if let file = entries.first(where: { modelExtensions.contains(($0 as NSString).pathExtension.lowercased()) }) {
            return (folder as NSString).appendingPathComponent(file)
        }
        let versions = entries.compactMap(Int.init).sorted()
        for version in versions.reversed() {
            if let file = modelFile(in: (folder as NSString).appendingPathComponent(String(version))) { return file }
        }
        return nil
    }
}
