import Foundation
import Fovea
import FoveaTools

// Median latency of one model at a thread count, measured the way `fovea bench`
// measures it (LatencyBenchmark), but from a build that depends on Fovea by version.
// Usage: BenchSqueezeNet MODEL.onnx [THREADS] [RUNS]
let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
    print("usage: BenchSqueezeNet MODEL.onnx [THREADS] [RUNS]")
    exit(64)
}
let threads = arguments.dropFirst().first.flatMap(Int.init) ?? 1
let runs = arguments.dropFirst(2).first.flatMap(Int.init) ?? 50
let model = try Model(contentsOfFile: path, configuration: ModelConfiguration(threads: threads))
guard let image = model.modelDescription.imageInput else {
    print("error: \(path) has no image input")
    exit(1)
}
let input = Tensor(shape: [1, 3, image.height, image.width], repeating: 0.5)
let result = try LatencyBenchmark(model: model).run(inputs: [image.name: input], runs: runs, warmup: 5)
print("median_ms \(result.medianMilliseconds) threads \(result.threads) runs \(result.runs)")
