import Foundation
import Fovea

// Classifies every image file of a folder (and its subfolders) in one call: a
// pipelined AsyncSequence, so a folder of millions of files never sits in memory.
// Usage: ClassifyFolder MODEL.onnx FOLDER
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 else {
    print("usage: ClassifyFolder MODEL.onnx FOLDER")
    exit(64)
}
let model = try Model(contentsOf: URL(fileURLWithPath: arguments[0])).describing { $0.classLabels = try .imageNet1k }
let request = try ClassificationRequest(model: model)
for try await image in try request.classify(directory: URL(fileURLWithPath: arguments[1]), recursive: true) {
    switch image.result {
    case .success(let observations): print("\(image.path): \(observations.first?.identifier ?? "?")")
    case .failure(let error): print("\(image.path): \(error)")
    }
}
