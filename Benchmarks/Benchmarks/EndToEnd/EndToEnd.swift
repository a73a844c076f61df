import Benchmark
@_spi(Internals) import Fovea
import Foundation

// End-to-end latency of the real models in ../shared/models (beside the checkout),
// one image per run, on each backend forced in turn (threads: every core).
let models = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/models").path

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
                                           maxDuration: .seconds(10), maxIterations: 20)

    for name in ["squeezenet1.1", "squeezenet1.0"] {
        for backend in BackendRegistry.standard.names {
            Benchmark("\(name) \(backend) batch 1") { benchmark in
                try run(model: name, backend: backend, benchmark)
            }
        }
    }

    Benchmark("decode + resize + crop red_panda.jpg") { benchmark in
        for _ in benchmark.scaledIterations {
            let image = try ImageDecoder.decode(contentsOf: "\(models)/photos/red_panda.jpg")
            blackHole(try image.resizedShorterSide(to: 256).centerCropped(width: 224, height: 224))
        }
    }
}

/// One image through `model` on `backend`, per iteration.
func run(model name: String, backend: String, _ benchmark: Benchmark) throws {
    let model = try Model(contentsOfFile: "\(models)/\(name).onnx", configuration: ModelConfiguration(backends: [backend]))
    let image = try ImageDecoder.decode(contentsOf: "\(models)/photos/red_panda.224.ppm")
    let input = try PixelNormalization.imageNet.tensor(from: [image])
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        blackHole(try model.predict(["data": input]))
    }
}
