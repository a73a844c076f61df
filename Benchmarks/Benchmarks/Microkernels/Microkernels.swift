import Benchmark
import CFoveaKernels
import Foundation

// The C kernels' inner loops alone, one thread, for every ISA this CPU runs
// (scalar, avx2, avx512; the kernels pick their code at run time, so no CPU
// flags are needed):
//
//  - "ukernel": one MR×NR tile of the SGEMM microkernel over kc = 64, 256, 576
//    (fovea_gemm_microkernel_repeat_f32 on the same packed panels);
//  - "gemm": SqueezeNet 1.1's 1×1 convolutions (its GEMM-shaped layers, batch 1,
//    ReLU fused) through fovea_conv2d_f32, weights packed for that ISA;
//  - "winograd": one block's input and output transforms, F(2x2), F(4x4),
//    F(6x6) (C = 64 channels, a block of NR tiles; fovea_winograd_*_transform_f32).
//
// Metrics (custom, measured by this file's own clock around the kernel calls of
// one iteration): GFLOP/s (2 per multiply-add), % of FMA peak (this machine's,
// from fovea_fma_peak_gflops of the same ISA, measured once per benchmark
// process), ns per call, and for the transforms Mtile/s (million channel-tiles
// per second: one α×α transform of one channel of one tile each). Run from
// Benchmarks/:  swift package benchmark --target Microkernels

let gflops = BenchmarkMetric.custom("GFLOP/s", polarity: .prefersLarger, useScalingFactor: false)
let percentOfPeak = BenchmarkMetric.custom("% of FMA peak", polarity: .prefersLarger, useScalingFactor: false)
let nsPerCall = BenchmarkMetric.custom("ns/call", polarity: .prefersSmaller, useScalingFactor: false)
let mtiles = BenchmarkMetric.custom("Mtile/s", polarity: .prefersLarger, useScalingFactor: false)

/// The ISAs this CPU and build can run, lowest first.
let supportedISAs: [String] = ["scalar", "avx2", "avx512"].filter { fovea_kernels_isa_supported($0) != 0 }

/// SqueezeNet 1.1's 1×1 convolutions (every distinct shape, in network order): input channels → output
/// channels at a square spatial size.
let squeezeNetGEMMs: [(layer: String, c: Int, m: Int, hw: Int)] = [
    ("fire2 squeeze1x1", 64, 16, 55), ("fire2,3 expand1x1", 16, 64, 55), ("fire3 squeeze1x1", 128, 16, 55),
    ("fire4 squeeze1x1", 128, 32, 27), ("fire4,5 expand1x1", 32, 128, 27), ("fire5 squeeze1x1", 256, 32, 27),
    ("fire6 squeeze1x1", 256, 48, 13), ("fire6,7 expand1x1", 48, 192, 13), ("fire7 squeeze1x1", 384, 48, 13),
    ("fire8 squeeze1x1", 384, 64, 13), ("fire8,9 expand1x1", 64, 256, 13), ("fire9 squeeze1x1", 512, 64, 13),
    ("conv10", 512, 1000, 13),
]

/// Kernel calls per measured iteration: enough for about this long, so the clock's cost does not count.
let iterationSeconds = 0.002

func check(_ status: fovea_status, _ what: @autoclosure () -> String) {
    precondition(status == FOVEA_STATUS_OK, "\(what()): \(String(cString: fovea_status_description(status)))")
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// `count` floats, 64-byte aligned, uniform in [-1, 1) from a fixed seed; never freed (lives for the process).
func randomFloats(_ count: Int, seed: UInt64) -> UnsafeMutablePointer<Float> {
    let raw = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * MemoryLayout<Float>.stride, alignment: 64)
    let floats = raw.bindMemory(to: Float.self, capacity: max(count, 1))
    var state = seed &+ 0x9E37_79B9_7F4A_7C15
    for i in 0..<count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        floats[i] = Float(Int64(bitPattern: state) >> 40) / Float(1 << 23)
    }
    return floats
}

/// Something to time: `run(n)` makes n calls of one kernel on data set up at the first use.
final class Kernel: @unchecked Sendable {
    let isa: String
    private let prepare: () -> ((Int) -> Void)
    private var run: ((Int) -> Void)?
    private var repeats = 1

    init(isa: String, prepare: @escaping () -> ((Int) -> Void)) {
        self.isa = isa
        self.prepare = prepare
    }

    /// Makes `repeats` calls (calibrated at the first use to last about iterationSeconds) and returns the seconds per call.
    func measure(_ benchmark: Benchmark) -> Double {
        if run == nil {
            let calls = prepare()
            calls(1) // warm caches and lazy dispatch
            var count = 1, elapsed = 0.0
            while true {
                elapsed = seconds(ContinuousClock().measure { calls(count) })
                if elapsed >= iterationSeconds / 4 || count >= 1 << 30 { break }
                count *= 4
            }
            repeats = max(1, Int(Double(count) * iterationSeconds / elapsed))
            run = calls
        }
        let calls = run!, count = repeats
        benchmark.startMeasurement()
        let elapsed = ContinuousClock().measure { calls(count) }
        benchmark.stopMeasurement()
        let perCall = seconds(elapsed) / Double(count)
        benchmark.measurement(nsPerCall, Int((perCall * 1e9).rounded()))
        return perCall
    }
}

/// The FMA peak of each ISA on this machine (one thread), measured at the first use.
final class Peaks: @unchecked Sendable {
    private var measured: [String: Double] = [:]
    private let lock = NSLock()

    func gflops(_ isa: String) -> Double {
        lock.lock()
        defer { lock.unlock() }
        if let value = measured[isa] { return value }
        let value = fovea_fma_peak_gflops(isa, 0.1)
        measured[isa] = value
        return value
    }
}

let benchmarks: @Sendable () -> Void = {
    let units: [BenchmarkMetric: BenchmarkUnits] = [gflops: .count, percentOfPeak: .count, nsPerCall: .count,
                                                    mtiles: .count]
    let flopsConfiguration = Benchmark.Configuration(metrics: [gflops, percentOfPeak, nsPerCall], units: units,
                                                     warmupIterations: 3, maxDuration: .seconds(1),
                                                     maxIterations: 200)
    let transformConfiguration = Benchmark.Configuration(metrics: [mtiles, nsPerCall], units: units,
                                                         warmupIterations: 3, maxDuration: .seconds(1),
                                                         maxIterations: 200)
    let peaks = Peaks()

    /// Registers a benchmark reporting GFLOP/s and % of peak of `flops` per call.
    func flopsBenchmark(_ name: String, _ kernel: Kernel, flops: Double) {
        Benchmark(name, configuration: flopsConfiguration) { benchmark in
            let perCall = kernel.measure(benchmark)
            let rate = flops / perCall / 1e9
            benchmark.measurement(gflops, Int(rate.rounded()))
            let peak = peaks.gflops(kernel.isa)
            if peak > 0 { benchmark.measurement(percentOfPeak, Int((100 * rate / peak).rounded())) }
        }
    }

    for isa in supportedISAs {
        var mr = 0, nr = 0
        check(fovea_gemm_microkernel_tile(isa, &mr, &nr), "tile of \(isa)")
        let name = String(cString: fovea_gemm_microkernel_name(isa))

        // The microkernel alone: one full tile over kc, panels in L1/L2.
        for kc in [64, 256, 576] {
            let kernel = Kernel(isa: isa) {
                let a = randomFloats(kc * mr, seed: 1), b = randomFloats(kc * nr, seed: 2)
                let c = randomFloats(mr * nr, seed: 3)
                // The repeats run inside C: no call or name lookup per tile.
                return { count in
                    check(fovea_gemm_microkernel_repeat_f32(isa, kc, a, b, c, nr, count), "\(name) kc=\(kc)")
                }
            }
            flopsBenchmark("ukernel \(name) kc=\(kc < 100 ? "0" : "")\(kc)", kernel, flops: 2.0 * Double(mr * nr * kc))
        }

        // SqueezeNet 1.1's 1×1 convolutions: blocking, B-panel packing and the microkernel (weights packed once; one thread).
        for (index, shape) in squeezeNetGEMMs.enumerated() {
            let kernel = Kernel(isa: isa) {
                var p = fovea_conv2d_params()
                p.batch = 1
                p.channels = shape.c
                p.input_height = shape.hw
                p.input_width = shape.hw
                p.output_channels = shape.m
                p.groups = 1
                p.output_height = shape.hw
                p.output_width = shape.hw
                (p.kernel_height, p.kernel_width, p.stride_height, p.stride_width) = (1, 1, 1, 1)
                (p.dilation_height, p.dilation_width, p.pad_top, p.pad_left) = (1, 1, 0, 0)
                // Packed weights carry the ISA active when they are packed.
                check(fovea_kernels_set_isa(isa), "set ISA \(isa)")
                let packedBytes = fovea_conv2d_packed_size(&p)
                let packed = UnsafeMutableRawPointer.allocate(byteCount: packedBytes, alignment: 64)
                let weights = randomFloats(shape.m * shape.c, seed: 4), bias = randomFloats(shape.m, seed: 5)
                check(fovea_conv2d_pack(&p, weights, bias, packed, packedBytes), "pack \(shape)")
                check(fovea_kernels_set_isa("auto"), "set ISA auto")
                let kernelName = String(cString: fovea_conv2d_kernel_name(packed))
                precondition(kernelName == name, "weights packed for \(isa) run \(kernelName), expected \(name)")
                let workspaceBytes = fovea_conv2d_workspace_size(packed, 1)
                let workspace = UnsafeMutableRawPointer.allocate(byteCount: max(workspaceBytes, 1), alignment: 64)
                let x = randomFloats(shape.c * shape.hw * shape.hw, seed: 6)
                let y = randomFloats(shape.m * shape.hw * shape.hw, seed: 7)
                var relu = fovea_activation(kind: FOVEA_ACTIVATION_RELU, min: 0, max: 0, alpha: 0)
                let params = p
                return { count in
                    var q = params
                    for _ in 0..<count {
                        check(fovea_conv2d_f32(&q, packed, x, y, shape.m * shape.hw * shape.hw, nil, &relu, workspace,
                                               workspaceBytes, 1), "conv \(shape)")
                    }
                }
            }
            let flops = 2.0 * Double(shape.c * shape.m * shape.hw * shape.hw)
            let number = index < 9 ? "0\(index + 1)" : "\(index + 1)" // names sort in network order
            flopsBenchmark("gemm \(number) \(shape.c)->\(shape.m) @\(shape.hw)x\(shape.hw) \(shape.layer) \(name)",
                           kernel, flops: flops)
        }

        // Winograd transforms of one block: C = 64 channels (input), 64 output channels (output), NR tiles.
        let channels = 64
        for (m, tile) in [(2, FOVEA_WINOGRAD_F2), (4, FOVEA_WINOGRAD_F4), (6, FOVEA_WINOGRAD_F6)] {
            let alpha = m + 2, points = alpha * alpha
            let input = Kernel(isa: isa) {
                let rowStride = nr * m + 2, channelStride = alpha * rowStride
                let x = randomFloats(channels * channelStride, seed: 8)
                let pointStride = channels * nr + 16 // as fovea_winograd_conv2d_f32
                let v = randomFloats(points * pointStride, seed: 9)
                return { count in
                    for _ in 0..<count {
                        check(fovea_winograd_input_transform_f32(isa, tile, channels, nr, x, rowStride, channelStride,
                                                                 v, pointStride), "F\(m) input")
                    }
                }
            }
            let output = Kernel(isa: isa) {
                let s = randomFloats(channels * points * nr, seed: 10)
                let bias = randomFloats(channels, seed: 11)
                let rowStride = nr * m, channelStride = m * rowStride
                let y = randomFloats(channels * channelStride, seed: 12)
                var relu = fovea_activation(kind: FOVEA_ACTIVATION_RELU, min: 0, max: 0, alpha: 0)
                return { count in
                    for _ in 0..<count {
                        check(fovea_winograd_output_transform_f32(isa, tile, channels, nr, s, bias, &relu, y,
                                                                  rowStride, channelStride), "F\(m) output")
                    }
                }
            }
            for (step, kernel) in [("input", input), ("output", output)] {
                let tiles = Double(channels * nr)
                Benchmark("winograd F\(m)x\(m) \(step) C=\(channels) \(nr) tiles \(isa)",
                          configuration: transformConfiguration) { benchmark in
                    let perCall = kernel.measure(benchmark)
                    benchmark.measurement(mtiles, Int((tiles / perCall / 1e6).rounded()))
                }
            }
        }
    }
}
