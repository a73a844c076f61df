import FoveaCore

/// A backend's name, typed: `.kernels`, `.simd`, `.blas`, `.reference`, or a
/// plugin's own (`BackendName("mine")`, or the string literal `"mine"`).
///
/// It is the `Backend.name` string a backend registers under; the typed form
/// catches typos of the built-in names at compile time:
///
/// ```swift
/// let configuration = ModelConfiguration(backends: [.simd], threads: 2)
/// ```
public struct BackendName: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name as registered: `kernels`, `simd`, ...
    public var rawValue: String

    /// The backend registered as `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The backend registered as `name`.
    public init(_ name: String) {
        self.rawValue = name
    }

    /// `"mine"` as a backend name.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The name of `backend`.
    public init(_ backend: any Backend) {
        self.rawValue = backend.name
    }

    /// The name, as on the command line.
    public var description: String { rawValue }

    /// The C kernels (Fovea's fastest on x86-64).
    public static let kernels = BackendName("kernels")
    /// The portable Swift SIMD backend.
    public static let simd = BackendName("simd")
    /// Conv, Gemm and MatMul on OpenBLAS.
    public static let blas = BackendName("blas")
    /// The reference backend: every operator, plainly; always available, always last.
    public static let reference = BackendName("reference")
}

extension ModelConfiguration {
    /// A configuration whose backends are given by typed names, in order of
    /// preference: `ModelConfiguration(backends: [.simd])`. The other
    /// parameters are those of the initializer that takes names as strings.
    public init(backends: [BackendName], threads: Int? = nil, registry: BackendRegistry = .standard,
                optimizations: OptimizationOptions = OptimizationOptions(), memoryLimit: MemoryLimit = .default) {
        self.init(backends: backends.map(\.rawValue), threads: threads, registry: registry,
                  optimizations: optimizations, memoryLimit: memoryLimit)
    }

    /// ``backends`` as typed names; setting it sets ``backends``.
    public var backendNames: [BackendName]? {
        get { backends?.map(BackendName.init(rawValue:)) }
        set { backends = newValue?.map(\.rawValue) }
    }
}

extension BackendRegistry {
    /// The registered names, typed, in preference order.
    public var backendNames: [BackendName] { backends.map(BackendName.init) }

    /// The backends with these names, in the given order.
    ///
    /// - Throws: `.invalidArgument` naming an unknown backend and the known ones.
    public func backends(named names: [BackendName]) throws -> [any Backend] {
        try backends(named: names.map(\.rawValue))
    }
}
