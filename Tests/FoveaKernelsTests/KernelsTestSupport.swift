import XCTest
import CFoveaKernels
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

/// The shared harness (``LayerCheck``) bound to the kernels backend, and what
/// the tests expect of its convolution routing.
enum KernelsTestSupport {
    static let backend = KernelsBackend()

    /// Every Winograd policy: the GEMM everywhere, each forced variant, and the measured table.
    /// The ISA the float32 kernels' names carry: the active one, except that the
    /// levels above AVX-512 (avx512bf16, amx) run AVX-512's float32 kernels.
    static var f32KernelISA: String {
        ["avx512bf16", "amx"].contains(KernelsBackend.isa) ? "avx512" : KernelsBackend.isa
    }

    static let policies: [WinogradPolicy] = [.off, .forced(.winogradF2), .forced(.winogradF4), .forced(.winogradF6), .measured]

    /// Runs `op` on the kernels backend and the reference (see ``LayerCheck/check``).
    @discardableResult
    static func check(_ op: Op, _ inputs: [Tensor], constants: Set<Int> = [], tolerance: Tolerance?,
                      threads: Int = 1, backend: KernelsBackend = backend, _ description: String,
                      file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try LayerCheck.check(backend, op, inputs, constants: constants, tolerance: tolerance, threads: threads, description,
                             file: file, line: line)
    }

    static func checkThreadIndependence(_ op: Op, _ inputs: [Tensor], constants: Set<Int> = [],
                                        backend: KernelsBackend = backend, _ description: String,
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        try LayerCheck.checkThreadIndependence(backend, op, inputs, constants: constants, description, file: file, line: line)
    }

    static func supports(_ op: Op, _ types: [TensorType], outputCount: Int = 1) -> Bool {
        LayerCheck.supports(backend, op, types, outputCount: outputCount)
    }

    /// Prepares `op` on the kernels backend (which must support it).
    static func prepare(_ op: Op, _ inputs: [Tensor], constants: Set<Int> = [],
                        backend: KernelsBackend = backend) throws -> (any PreparedStep, NodeContext) {
        let context = try LayerCheck.nodeContext(op, inputs, constants: constants)
        return (try backend.prepare(context), context)
    }

    // MARK: Convolution routing, written out independently of the backend's code

    /// The convolution algorithm `policy` must give `c`: depthwise for one
    /// group per channel; for a 3×3, stride-1, dilation-1, one-group
    /// convolution, the policy's (the measured table's for `.measured`);
    /// the GEMM otherwise.
    static func expectedAlgorithm(_ c: ConvCase, _ policy: WinogradPolicy) throws -> ConvolutionAlgorithm {
        if c.isDepthwise { return .depthwise }
        let a = c.attributes
        // Measured policy: group 1 with at most 4 input channels, a kernel of 2 to 121 taps (each side ≤ 11),
        // strides 1–2 and dilation 1 run the direct small-channel kernel when the kernel has at least 25 taps
        // or there are at most 32 output channels.
        let kernel = Array(c.weights.shape.dropFirst(2))
        let smallChannel = a.group == 1 && c.input.shape[1] <= 4 && kernel != [1, 1] && kernel.allSatisfy { $0 <= 11 }
            && a.strides.allSatisfy { $0 <= 2 } && a.dilations.allSatisfy { $0 == 1 } && !a.addsResidual
            && (kernel[0] * kernel[1] >= 25 || c.weights.shape[0] <= 32)
        if policy == .measured && smallChannel { return .directSmallChannel }
        let winogradShape = a.group == 1 && c.weights.shape[2] == 3 && c.weights.shape[3] == 3
            && a.strides.allSatisfy { $0 == 1 } && a.dilations.allSatisfy { $0 == 1 }
        guard winogradShape else { return .gemm }
        switch policy {
        case .off: return .gemm
        case .forced(let variant): return variant
        case .measured:
            let output = try geometry(c).outputSize
            let fastest = ConvolutionAlgorithmTable.fastest(channels: c.input.shape[1], outputChannels: c.weights.shape[0],
                                                            height: output[0], width: output[1])
            // Planes above 64×64 take F2 at most (ConvolutionShape.largestPlaneForLargeWinogradTiles).
            return output[0] * output[1] > 64 * 64 && (fastest == .winogradF4 || fastest == .winogradF6) ? .winogradF2 : fastest
        }
    }

    /// How the step's `algorithm` must begin for `c` under `policy`, such as
    /// `winograd_f4x4_3x3 f32_gemm_`, `gemm 1x1 f32_gemm_`, `im2col+gemm 3x1 f32_gemm_`,
    /// `dwconv_3x3s2_avx512` or `dwconv_7x7s1_avx2`.
    static func expectedAlgorithmPrefix(_ c: ConvCase, _ policy: WinogradPolicy) throws -> String {
        let g = try geometry(c)
        let kernel = Array(c.weights.shape.dropFirst(2))
        switch try expectedAlgorithm(c, policy) {
        case .depthwise:
            // 3×3 has its own kernels everywhere, 5×5 and 7×7 on AVX2 and AVX-512; stride 1 or 2, no dilation.
            let square = kernel[0] == kernel[1] && g.dilations == [1, 1] && g.strides[0] == g.strides[1] && g.strides[0] <= 2
            let own = square && (kernel[0] == 3 || ((kernel[0] == 5 || kernel[0] == 7) && KernelsBackend.isa != "scalar"))
            let variant = own ? "\(kernel[0])x\(kernel[1])s\(g.strides[0])" : "kxk"
            return "dwconv_\(variant)_\(f32KernelISA)"
        case .directSmallChannel:
            return "direct-smallc \(kernel[0])x\(kernel[1]) f32_conv_smallc_"
        case .winogradF2: return "winograd_f2x2_3x3 f32_gemm_"
        case .winogradF4: return "winograd_f4x4_3x3 f32_gemm_"
        case .winogradF6: return "winograd_f6x6_3x3 f32_gemm_"
        case .gemm:
            // The C kernels read the input planes in place only when the output is the input, pixel for pixel.
            let pointwise = kernel == [1, 1] && g.strides == [1, 1] && g.padsBegin == [0, 0]
                && g.outputSize == Array(c.input.shape.dropFirst(2))
            return pointwise ? "gemm 1x1 f32_gemm_" : "im2col+gemm \(kernel[0])x\(kernel[1]) f32_gemm_"
        }
    }

    /// The case's resolved geometry (pads from auto_pad, output size).
    static func geometry(_ c: ConvCase) throws -> SpatialGeometry {
        try SpatialGeometry(inputSize: Array(c.input.shape.dropFirst(2)), convolution: c.attributes, weightShape: c.weights.shape)
    }

    /// The C kernels' written error bound of a Winograd variant (fovea_winograd.h),
    /// relative to the largest magnitude of the exact output.
    static func writtenWinogradBound(_ variant: ConvolutionAlgorithm) -> Float? {
        switch variant {
        case .winogradF2: return Float(FOVEA_WINOGRAD_F2_TOLERANCE)
        case .winogradF4: return Float(FOVEA_WINOGRAD_F4_TOLERANCE)
        case .winogradF6: return Float(FOVEA_WINOGRAD_F6_TOLERANCE)
        case .gemm, .depthwise, .directSmallChannel: return nil
        }
    }

    /// The largest |actual − expected| over the largest |expected| (the parity rule's measure).
    static func relativeError(_ actual: Tensor, _ expected: Tensor) -> Float {
        let a = actual.floats ?? [], e = expected.floats ?? []
        let scale = e.filter(\.isFinite).map(abs).max() ?? 0
        let worst = zip(a, e).map { abs($0 - $1) }.max() ?? 0
        return scale > 0 ? worst / scale : worst
    }
}
