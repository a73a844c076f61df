import CFoveaKernels
import Foundation
import FoveaCore

/// The backend on Fovea's C kernels (`Kernels/`, the `CFoveaKernels` module):
/// packed SGEMM microkernels per ISA, im2col and 1×1 convolutions, Winograd
/// F(2)/F(4)/F(6) for 3×3 convolutions, direct depthwise convolutions,
/// pooling, softmax and elementwise operators, split over the run's worker
/// threads (``RunContext/kernelThreadPool``: the pool Swift steps use too).
///
/// The ISA (AVX-512, AVX2, scalar) is detected once; `FOVEA_ISA` overrides it.
/// Each 3×3 stride-1 convolution's algorithm is measured on this CPU (``KernelTuning``,
/// `fovea tune`), else taken from the fallback ``ConvolutionAlgorithmTable``, unless a
/// ``WinogradPolicy`` forces one.
public struct KernelsBackend: Backend {
    /// `"kernels"`: the name this backend goes by in configurations and plans.
    public static let name = "kernels"
    public var name: String { Self.name }

    /// Which Winograd variant 3×3 stride-1 convolutions use.
    public let winograd: WinogradPolicy

    /// Where measured choices come from, and the thread count they are looked up for.
    public var tuning: KernelTuning { tuningSession.tuning }
    let tuningSession: TuningSession

    /// Creates the kernels backend; `winograd` picks the 3×3 convolution algorithm (measured per shape by default),
    /// `tuning` where measurements come from (the fallback table unless told: see ``tuned(_:threads:)``).
    public init(winograd: WinogradPolicy = .measured, tuning: KernelTuning = .fallback,
                threads: Int = RunContext.defaultThreadCount, store: TuningStore? = nil) {
        self.winograd = winograd
        tuningSession = TuningSession(tuning: tuning, threads: threads, store: store)
    }

    /// This backend with its choices from `tuning`, for runs on `threads` threads
    /// (a model's configuration applies its own this way).
    public func tuned(_ tuning: KernelTuning, threads: Int) -> KernelsBackend {
        KernelsBackend(winograd: winograd, tuning: tuning, threads: threads, store: tuningSession.store)
    }

    public func supports(_ node: NodeContext) -> Bool {
        guard let family = Self.family(of: node.op) else { return false }
        return family.supports(node)
    }

    public func prepare(_ node: NodeContext) throws -> any PreparedStep {
        guard let family = Self.family(of: node.op), family.supports(node) else {
            throw FoveaError(.unsupported, "the kernels backend cannot run \(node.op.typeName)")
        }
        return try family.prepare(node, self)
    }

    /// The ISA the kernels use now: `amx`, `avx512bf16`, `avx512`, `avx2` or `scalar`
    /// (the first two run AVX-512's fp32 kernels and add bf16 ones).
    public static var isa: String { String(cString: fovea_kernels_isa_name()) }

    /// The family that implements `op`, if any.
    static func family(of op: Op) -> KernelsOperatorFamily.Type? {
        switch op {
        case .conv: return KernelsConvolution.self
        case .gemm, .matMul: return KernelsMatrix.self
        case .maxPool, .averagePool, .globalAveragePool, .globalMaxPool, .reduce: return KernelsPooling.self
        case .flatten, .reshape, .squeeze, .unsqueeze, .identity, .dropout: return KernelsReshape.self
        case .concat: return KernelsConcat.self
        case .transpose: return KernelsTranspose.self
        case .pad: return KernelsPad.self
        case .slice, .gather: return KernelsIndexedCopy.self
        case .batchNormalization: return KernelsNormalization.self
        case .add, .sub, .mul, .div, .maximum, .minimum, .pow, .relu, .clip, .leakyRelu, .sigmoid, .softmax, .logSoftmax,
             .hardSigmoid, .hardSwish, .unary: return KernelsElementwise.self
        case .layerNormalization: return KernelsLayerNormalization.self
        case .squeezeExcitation: return KernelsSqueezeExcitation.self
        case .quantizedConv, .qLinearGlobalAveragePool, .quantizeLinear, .dequantizeLinear: return KernelsQuantized.self
        default: return nil
        }
    }
}

/// One family of operators of the kernels backend.
protocol KernelsOperatorFamily {
    /// Whether the family runs this node (shapes, attributes, data types).
    static func supports(_ node: NodeContext) -> Bool
    /// Prepares the node: packs weights, fixes the algorithm.
    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep
}
