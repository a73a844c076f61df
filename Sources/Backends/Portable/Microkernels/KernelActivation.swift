import FoveaCore

/// A fused activation as the kernels take it: a code and up to two parameters
/// (see FusedActivationKernel.swift).
struct KernelActivation: Sendable, Equatable {
    var code: Int
    var p0: Float
    var p1: Float

    static let none = KernelActivation(code: 0, p0: 0, p1: 0)

    init(code: Int, p0: Float, p1: Float) {
        self.code = code
        self.p0 = p0
        self.p1 = p1
    }

    init(_ activation: FusedActivation?) {
        switch activation {
        case nil: self = .none
        case .relu: self.init(code: 1, p0: 0, p1: 0)
        case .leakyRelu(let alpha): self.init(code: 2, p0: alpha, p1: 0)
        case .clip(let lower, let upper): self.init(code: 3, p0: lower ?? -.infinity, p1: upper ?? .infinity)
        // The others run after the GEMM of each output block (SIMDElementwiseFunction).
        default: self = .none
        }
    }
}
