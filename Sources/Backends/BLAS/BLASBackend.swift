import FoveaCore
import COpenBLAS

/// The backend that lowers GEMM-shaped work to OpenBLAS's `cblas_sgemm`
/// (`blas`): 2-D convolution (im2col into the planned workspace, or the input
/// planes themselves for a 1×1 stride-1 kernel), Gemm and MatMul. It claims
/// nothing else, so every other node goes to the next backend in the order:
/// use it as `--backend blas,simd`.
///
/// OpenBLAS runs its own pthreads pool. Each step sets its thread count from
/// the run's ``RunContext`` (`openblas_set_num_threads`, a process-wide
/// setting), and first sends Fovea's spinning workers to sleep so the two pools
/// do not fight over the cores.
public struct BLASBackend: Backend {
    /// `"blas"`: the name this backend goes by in configurations and plans.
    public static let name = "blas"
    public var name: String { Self.name }

    /// Creates the BLAS backend; OpenBLAS's thread count is set per run from the ``RunContext``.
    public init() {}

    public func supports(_ node: NodeContext) -> Bool {
        switch node.op {
        case .conv: return (try? BLASConvolutionStep.layout(node)) != nil
        case .gemm, .matMul: return (try? BLASMatrixStep(node)) != nil
        default: return false
        }
    }

    public func prepare(_ node: NodeContext) throws -> any PreparedStep {
        switch node.op {
        case .conv: return try BLASConvolutionStep(node)
        case .gemm, .matMul: return try BLASMatrixStep(node)
        default: throw FoveaError(.unsupported, "the blas backend runs only Conv, Gemm and MatMul, not \(node.op.typeName)")
        }
    }

    /// The OpenBLAS configuration line (`OpenBLAS 0.3.21 DYNAMIC_ARCH ... Cooperlake MAX_THREADS=64`), for reports.
    public static var configuration: String {
        String(cString: openblas_get_config()) + " core " + String(cString: openblas_get_corename())
    }

    /// Sets OpenBLAS's threads for the step about to run, after parking
    /// Fovea's workers (they would spin on the cores OpenBLAS needs).
    static func prepareThreads(_ context: RunContext) {
        if context.threads > 1 { RunContext.parkWorkers() }
        openblas_set_num_threads(Int32(context.threads))
    }
}
