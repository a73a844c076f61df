import CFoveaKernels
import FoveaCore
import FoveaKernelsBackend
import XCTest

/// The kernel ISA names, lowest first.
let allKernelISAs = ["scalar", "avx2", "avx512"]

/// The ISAs this CPU runs: every one of them is compared with the reference.
var supportedKernelISAs: [String] {
    allKernelISAs.filter { fovea_kernels_isa_supported($0) != 0 }
}

/// Runs `body` with every kernel call forced to `isa`, then restores the default choice.
func withKernelISA<T>(_ isa: String, _ body: () throws -> T) throws -> T {
    try checkKernelStatus(fovea_kernels_set_isa(isa), "forcing ISA \(isa)")
    defer { fovea_kernels_set_isa("auto") }
    return try body()
}

/// The active ISA's name.
var activeKernelISA: String { String(cString: fovea_kernels_isa_name()) }

/// Turns a kernel status into a `FoveaError` (what the FoveaKernels backend will do too).
func checkKernelStatus(_ status: fovea_status, _ what: String) throws {
    guard status == FOVEA_STATUS_OK else {
        throw FoveaError(.invalidArgument, "\(what): \(String(cString: fovea_status_description(status))) (status \(status.rawValue))")
    }
}

/// Runs a one-node graph `x -> op -> y` through the reference backend.
func referenceResult(of op: Op, input: Tensor) throws -> Tensor {
    let graph = Graph(
        name: "single \(op.typeName)",
        inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: input.shape.map { .known($0) })],
        outputs: [ValueInfo(name: "y", dataType: .float32, dimensions: nil)],
        nodes: [Node(name: "p", op: op, inputs: ["x"], outputs: ["y"])])
    let outputs = try ExecutionPlan(graph: graph).run(["x": input])
    guard let y = outputs["y"] else {
        throw FoveaError(.invalidModel, "the reference run returned no output 'y'")
    }
    return y
}

/// The kernel parameters for a 2-D pooling of an NCHW `inputShape`, with the
/// strides, dilations and pads (defaults and `auto_pad` resolved) and the
/// output size that FoveaCore's `SpatialGeometry` gives.
func poolParameters(_ a: PoolAttributes, inputShape: [Int]) throws -> fovea_pool2d_params {
    let g = try SpatialGeometry(inputSize: Array(inputShape[2...]), pooling: a)
    return fovea_pool2d_params(
        batch: inputShape[0], channels: inputShape[1],
        input_height: inputShape[2], input_width: inputShape[3],
        output_height: g.outputSize[0], output_width: g.outputSize[1],
        kernel_height: g.kernelShape[0], kernel_width: g.kernelShape[1],
        stride_height: g.strides[0], stride_width: g.strides[1],
        dilation_height: g.dilations[0], dilation_width: g.dilations[1],
        pad_top: g.padsBegin[0], pad_left: g.padsBegin[1], pad_bottom: g.padsEnd[0], pad_right: g.padsEnd[1],
        count_include_pad: a.countIncludePad ? 1 : 0)
}

/// Runs a 2-D pooling kernel on `x` with the active ISA on up to `threads` of Fovea's worker threads.
func runPoolKernel(max: Bool, _ params: fovea_pool2d_params, _ x: [Float], threads: Int = 1) throws -> [Float] {
    var params = params
    // An output too large to count stays empty: the kernel must refuse such sizes before writing.
    let count = [params.channels, params.output_height, params.output_width].reduce(Optional(params.batch)) { total, n in
        total.flatMap { let (product, overflow) = $0.multipliedReportingOverflow(by: n); return overflow ? nil : product }
    }
    var y = [Float](repeating: .nan, count: count.map { $0 <= 1 << 28 ? $0 : 0 } ?? 0)
    var pool = RunContext(threads: threads).kernelThreadPool
    let status = x.withUnsafeBufferPointer { xp in
        y.withUnsafeMutableBufferPointer { yp in
            max ? fovea_maxpool2d_f32(&params, xp.baseAddress, yp.baseAddress, &pool)
                : fovea_avgpool2d_f32(&params, xp.baseAddress, yp.baseAddress, &pool)
        }
    }
    try checkKernelStatus(status, max ? "fovea_maxpool2d_f32" : "fovea_avgpool2d_f32")
    return y
}

/// Runs a global pooling kernel on an NC… tensor with the active ISA on up to `threads` of Fovea's worker threads.
func runGlobalPoolKernel(max: Bool, shape: [Int], _ x: [Float], threads: Int = 1) throws -> [Float] {
    let spatial = shape.dropFirst(2).reduce(1, *)
    var y = [Float](repeating: .nan, count: shape[0] * shape[1])
    var pool = RunContext(threads: threads).kernelThreadPool
    let status = x.withUnsafeBufferPointer { xp in
        y.withUnsafeMutableBufferPointer { yp in
            max ? fovea_global_maxpool_f32(shape[0], shape[1], spatial, xp.baseAddress, yp.baseAddress, &pool)
                : fovea_global_avgpool_f32(shape[0], shape[1], spatial, xp.baseAddress, yp.baseAddress, &pool)
        }
    }
    try checkKernelStatus(status, max ? "fovea_global_maxpool_f32" : "fovea_global_avgpool_f32")
    return y
}

/// Runs a 2-D or global pooling `op` on `x` with the C kernels and the active ISA.
func runPoolingKernel(_ op: Op, _ x: Tensor) throws -> [Float] {
    let floats = try x.requireFloats()
    switch op {
    case .maxPool(let a): return try runPoolKernel(max: true, try poolParameters(a, inputShape: x.shape), floats)
    case .averagePool(let a): return try runPoolKernel(max: false, try poolParameters(a, inputShape: x.shape), floats)
    case .globalMaxPool: return try runGlobalPoolKernel(max: true, shape: x.shape, floats)
    case .globalAveragePool: return try runGlobalPoolKernel(max: false, shape: x.shape, floats)
    default: throw FoveaError(.unsupported, "\(op.typeName) is not a pooling")
    }
}

/// The index and values of the first element that differs, or nil.
/// `exact`: same bits, the sign of zero included (any NaN matches any NaN); else `|got - want| <= 1e-6 * max(1, |want|)`
/// (inputs lie in [-1, 1], so this is 1e-6 relative to the data's scale).
func firstMismatch(_ got: [Float], _ want: [Float], exact: Bool) -> (index: Int, got: Float, want: Float)? {
    guard got.count == want.count else { return (-1, Float(got.count), Float(want.count)) }
    for i in got.indices {
        let a = got[i], b = want[i]
        let same: Bool
        if a.isNaN || b.isNaN {
            same = a.isNaN && b.isNaN
        } else if exact || a.isInfinite || b.isInfinite {
            same = a.bitPattern == b.bitPattern
        } else {
            same = abs(a - b) <= 1e-6 * Swift.max(1, abs(b))
        }
        if !same { return (i, a, b) }
    }
    return nil
}
