import Foundation
import Fovea

// Classifies the shared photos from N concurrent tasks (one model and one request
// shared by all, default configuration) and prints images/s for each N.
//
//   ConcurrentTasks [--model M] [--photos DIR] [--total K] [--tasks 1,4,16] [--threads T]
// (--threads: ModelConfiguration.threads; default nil, every core)

var model = "../shared/models/squeezenet1.1.onnx"
var photos = "../shared/models/photos"
var total = 240
var taskCounts = [1, 4, 16]
var threads: Int?
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst(), let value = arguments.popFirst() {
    switch flag {
    case "--model": model = value
    case "--photos": photos = value
    case "--total": total = Int(value) ?? total
    case "--tasks": taskCounts = value.split(separator: ",").compactMap { Int($0) }
    case "--threads": threads = Int(value)
    default: fatalError("unknown flag \(flag)")
    }
}

let files = try FileManager.default.contentsOfDirectory(atPath: photos).sorted()
    .filter { ["jpg", "png"].contains(($0 as NSString).pathExtension) }
    .map { URL(fileURLWithPath: photos).appendingPathComponent($0) }
let loaded = try Model(contentsOf: URL(fileURLWithPath: model), configuration: ModelConfiguration(threads: threads))
    .describing { $0.classLabels = try .imageNet1k }
let request = try ClassificationRequest(model: loaded)

/// Classifies `total` photos from `tasks` tasks; returns images/s.
func measure(tasks: Int, total: Int) async throws -> Double {
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for task in 0..<tasks {
            group.addTask {
                for index in stride(from: task, to: total, by: tasks) {
                    let handler = try ImageRequestHandler(contentsOfFile: files[index % files.count])
                    let observations = try await handler.perform(request)
                    precondition(!observations.isEmpty)
                }
            }
        }
        try await group.waitForAll()
    }
    let elapsed = ContinuousClock.now - start
    return Double(total) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
}

_ = try await measure(tasks: 1, total: 8)  // warm-up: plans, decoders, thread pool
for tasks in taskCounts {
    let rate = try await measure(tasks: tasks, total: total)
    print(String(format: "tasks %2d: %6.1f images/s", tasks, rate))
}
