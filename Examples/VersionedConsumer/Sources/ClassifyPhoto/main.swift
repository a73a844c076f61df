import Fovea

// Load once (reads squeezenet1.1.fovea.json if there is one); Sendable.
let model = try Model(contentsOfFile: "squeezenet1.1.onnx").describing {
    $0.classLabels = try .imageNet1k   // or ClassLabels(contentsOfFile: "labels.txt"), ClassLabels(["cat", "dog"])
}
let request = try ClassificationRequest(model: model)       // make once, reuse from any task
request.maximumObservations = 3
let handler = try ImageRequestHandler(contentsOfFile: "red_panda.jpg")  // reads the file and its EXIF orientation once
for observation in try await handler.perform(request) {  // off the main actor; cancellable
    print(observation.identifier, observation.confidence)
}
