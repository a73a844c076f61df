import Foundation
import Fovea

// Classifies every photo given on the command line from its own task, with one
// shared model and request. The runs share Fovea's one pool of threads, so the
// tasks use about the machine's cores however many there are.
// Usage: ClassifyConcurrently MODEL.onnx PHOTO...
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    print("usage: ClassifyConcurrently MODEL.onnx PHOTO...")
    exit(64)
}
let model = try Model(contentsOf: URL(fileURLWithPath: arguments[0])).describing { $0.classLabels = try .imageNet1k }
let request = try ClassificationRequest(model: model)
request.maximumObservations = 1
let photos = arguments.dropFirst().map { URL(fileURLWithPath: $0) }

let labels = try await withThrowingTaskGroup(of: (Int, String).self) { group in
    for (index, photo) in photos.enumerated() {
        group.addTask {
            let observations = try await ImageRequestHandler(contentsOf: photo).perform(request)
            return (index, observations.first?.identifier ?? "?")
        }
    }
    var labels = [String](repeating: "", count: photos.count)
    for try await (index, label) in group { labels[index] = label }
    return labels
}
for (photo, label) in zip(photos, labels) { print("\(photo.lastPathComponent): \(label)") }
