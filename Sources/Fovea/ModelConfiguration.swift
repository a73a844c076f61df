import FoveaCore
import FoveaKernelsBackend

/// How a ``Model`` runs: which backends, how many threads, which graph
/// rewrites and memory savings.
public struct ModelConfiguration: Sendable {
    /// Backend names in order of preference, such as `["simd"]` to force the
    /// SIMD backend (nodes it cannot run fall back to the reference backend),
    /// or `nil` for the registry's default order.
    public var backends: [String]?
    /// Intra-op threads per run; `nil` uses every core. More than the
    /// machine's active cores is clamped to them (``effectiveThreads``); less
    /// than 1 is an error when the model is loaded.
    ///
    /// Under concurrency these threads are not added up per task: the extra
    /// threads of every run come from one process-wide pool with one worker per
    /// core besides the caller, and it serves one run at a time. A run that
    /// finds the pool busy (another task's run holds it) does its whole share on
    /// its own thread. So N tasks performing at once use about the machine's
    /// cores whatever N is, with the default `nil` as with `1`; on a loaded
    /// server, `threads: 1` per model keeps every run on its own task's thread.
    public var threads: Int?
    /// Where backend names are looked up.
    public var registry: BackendRegistry
    /// Graph passes and memory savings; all on by default.
    public var optimizations: OptimizationOptions
    /// The most memory one run of the model may need (arena, weights, inputs),
    /// checked from the shapes before any plan allocates: by default half of
    /// the machine's memory (see `MemoryLimit`).
    public var memoryLimit: MemoryLimit
    /// The arithmetic the model's plans may use. `Precision.f32` (the
    /// default) gives the float32 answers `fovea parity` vouches for.
    /// `Precision.bf16` lets the `kernels` backend run its GEMM convolutions
    /// with bfloat16 multiplies and float32 accumulation — faster on CPUs with
    /// AVX512_BF16 or AMX, within a looser, documented tolerance
    /// (`KernelsBackend.bf16Tolerance`; SqueezeNet 1.1's logits move by under 1%
    /// of the largest, the top class of every shared photo unchanged); other
    /// steps and other backends run in float32. `fovea inspect --plan`
    /// names each step's precision.
    public var precision: Precision
    /// Where the `kernels` backend's measured choices (each 3×3 convolution's algorithm)
    /// come from: ``KernelTuning/remembered`` (the default) uses what `fovea tune` stored for
    /// this CPU and ``effectiveThreads``, else a fallback table measured on another CPU (it
    /// names it); ``KernelTuning/measure`` also measures what is missing while plans are
    /// built, within its stated budget, and stores it; ``KernelTuning/fallback`` ignores
    /// what is stored. `fovea inspect --plan` says where each choice came from.
    public var tuning: KernelTuning

    /// Creates a configuration; every argument defaults to the standard choice (see each property).
    public init(backends: [String]? = nil, threads: Int? = nil, registry: BackendRegistry = .standard,
                optimizations: OptimizationOptions = OptimizationOptions(), memoryLimit: MemoryLimit = .default,
                precision: Precision = .f32) {
        self.backends = backends
        self.threads = threads
        self.registry = registry
        self.optimizations = optimizations
        self.memoryLimit = memoryLimit
        self.precision = precision
        self.tuning = .remembered
    }

    /// A configuration with its choices from `tuning`: `ModelConfiguration(tuning: .measure)`.
    /// The other parameters are those of the initializer above.
    public init(backends: [String]? = nil, threads: Int? = nil, registry: BackendRegistry = .standard,
                optimizations: OptimizationOptions = OptimizationOptions(), memoryLimit: MemoryLimit = .default,
                precision: Precision = .f32, tuning: KernelTuning) {
        self.init(backends: backends, threads: threads, registry: registry, optimizations: optimizations,
                  memoryLimit: memoryLimit, precision: precision)
        self.tuning = tuning
    }

    /// The threads a run uses: ``threads`` clamped to `1 ... ` the machine's
    /// active cores, or every core when `nil`.
    public var effectiveThreads: Int {
        RunContext.clampedThreadCount(threads ?? RunContext.defaultThreadCount)
    }

    /// The backends this configuration selects, in preference order.
    public func resolvedBackends() throws -> [any Backend] {
        guard let backends else { return registry.backends.map(applyingTuning) }
        guard !backends.isEmpty else { throw FoveaError(.invalidArgument, "the backend list is empty") }
        return try registry.backends(named: backends).map(applyingTuning)
    }

    /// The `kernels` backend with ``tuning`` for ``effectiveThreads``; other backends as they are.
    private func applyingTuning(_ backend: any Backend) -> any Backend {
        (backend as? KernelsBackend)?.tuned(tuning, threads: effectiveThreads) ?? backend
    }

    /// The most threads a run of this configuration uses: plans size their
    /// workspaces for it.
    public var maxThreads: Int {
        RunContext.defaultThreadCount
    }

    /// The run context for ``effectiveThreads``.
    @_spi(Internals) public var runContext: RunContext {
        RunContext(threads: effectiveThreads)
    }
}
