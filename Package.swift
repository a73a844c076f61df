// swift-tools-version:6.2
import PackageDescription

// Fovea: an inference engine for convolutional image classifiers.
// Module map and roles: see README.md ("Layout").
let package = Package(
    name: "Fovea",
    platforms: [.macOS(.v13)],
    products: [
        // Everything `Fovea` depends on builds with no unsafe flags, so a package
        // can depend on it by version (`from:`); scripts/ci/versioned-consumer.sh checks.
        .library(name: "Fovea", targets: ["Fovea"]),
        // For backend plugins: the `Backend` protocol and the types its requirements mention
        // (kept out of `import Fovea` so that `Node`, `Op`, `RunContext` stay out of users' namespaces).
        .library(name: "FoveaPlugins", targets: ["FoveaPlugins"]),
        // Frames: barcodes (zbar), image registration (FFTW), sequences, a frame classifier and
        // YUV4MPEG2 video; `import FoveaFrames`. Kept out of `Fovea`, which then needs neither library.
        .library(name: "FoveaFrames", targets: ["FoveaFrames"]),
        .executable(name: "fovea", targets: ["fovea"]),
        // The CLI's tooling (benchmarks, parity, conformance, inspect reports, .npy files); not part of `Fovea`.
        .library(name: "FoveaTools", targets: ["FoveaTools"]),
        .library(name: "FoveaTraining", targets: ["FoveaTraining"]),
        // Dynamic batching for `fovea-serve` (Server/); no dependencies, not part of `Fovea`.
        .library(name: "FoveaBatching", targets: ["FoveaBatching"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        // `swift package generate-documentation` (the DocC catalog in Sources/Fovea/Fovea.docc).
        // A command plugin: nothing of it is built unless that command runs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Graph IR, tensors, shape inference, executor and the reference backend.
        .target(name: "FoveaCore", dependencies: [.product(name: "Atomics", package: "swift-atomics")]),

        // ONNX protobuf -> Graph. The generated Swift in Sources/FoveaONNX/Proto is committed.
        .target(
            name: "FoveaONNX",
            dependencies: ["FoveaCore", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            exclude: ["Proto/onnx-subset.proto", "Proto/README.md"]
        ),

        // Core ML .mlmodel (NeuralNetwork) -> Graph. The generated Swift in Sources/FoveaCoreML/Proto is committed.
        .target(
            name: "FoveaCoreML",
            dependencies: ["FoveaCore", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            exclude: ["Proto/coreml-subset.proto", "Proto/README.md"]
        ),

        // Image decoding (libjpeg-turbo, libpng, PPM, and below), resampling, crop, tensor conversion.
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // HEIC/HEIF and AVIF (libheif), WebP (libwebp), colour matching to sRGB (lcms2), iCCP (zlib).
        .systemLibrary(name: "CHEIF", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "FoveaImage", dependencies: ["FoveaCore", "CTurboJPEG", "CPNG", "CHEIF", "CWebP", "CLCMS2", "CZlib"]),

        // Video frames: phase-correlation registration (FFTW, single precision),
        // barcode scanning (zbar), YUV4MPEG2 reading, and Vision's requests over them
        // (Requests/: performed by Fovea's ImageRequestHandler). Its own product: `Fovea`
        // does not depend on it.
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .target(name: "FoveaFrames", dependencies: ["Fovea", "FoveaCore", "FoveaImage", "CFFTW", "CZBar"]),

        // The backends, one folder each under Sources/Backends (the reference
        // backend stays in FoveaCore: the planner falls back to it and the
        // optimizer folds constants with it). CLI names: `simd`, `kernels`, `blas`.

        // The `simd` backend: portable, pure Swift on generic SIMD types, no C
        // and no CPU flags (Sources/Backends/Portable/README.md).
        .target(name: "FoveaPortableBackend", dependencies: ["FoveaCore"], path: "Sources/Backends/Portable",
                exclude: ["README.md"]),

        // The `blas` backend: GEMM-shaped work on OpenBLAS (Debian: libopenblas-dev).
        .systemLibrary(name: "COpenBLAS", pkgConfig: "openblas", providers: [.apt(["libopenblas-dev"])]),
        .target(name: "FoveaBLASBackend", dependencies: ["FoveaCore", "COpenBLAS"], path: "Sources/Backends/BLAS"),

        // C kernels (Kernels/src: runtime/, configs/, operators/, microkernels/<family>/);
        // also built and tested standalone by CMakeLists.txt + ctest.
        // No flags: per-function target attributes pick the ISA at run time, and
        // without -fopenmp the kernels' threads come from their own pthread pool
        // (Kernels/src/runtime/thread-pool.c).
        .target(
            name: "CFoveaKernels",
            path: "Kernels",
            // The standalone library's own pools: the Swift executor passes its WorkerPool instead.
            exclude: ["tests", "doc", "README.md", "src/runtime/thread-pool.c", "src/runtime/default-threadpool.c"],
            sources: ["src"],
            publicHeadersPath: "include"
        ),

        // The `kernels` backend over the C kernels.
        .target(name: "FoveaKernelsBackend", dependencies: ["FoveaCore", "CFoveaKernels"], path: "Sources/Backends/Kernels"),

        // The public face: model loading, classification, requests and handlers.
        // Resources/: the 1000 ImageNet labels (ClassLabels.imageNet1k, `--labels imagenet`).
        .target(
            name: "Fovea",
            dependencies: ["FoveaCore", "FoveaONNX", "FoveaCoreML", "FoveaImage", "FoveaPortableBackend", "FoveaBLASBackend", "FoveaKernelsBackend"],
            resources: [.copy("Resources/imagenet1k-labels.txt")]
        ),

        // Re-exports Fovea and FoveaCore's plugin types (Sources/FoveaPlugins/Exports.swift).
        .target(name: "FoveaPlugins", dependencies: ["Fovea", "FoveaCore"]),

        // ---- Tooling: what the CLI and the tests use, kept out of the `Fovea` library ----
        // Latency and per-layer benchmarks, parity against the reference backend, the ONNX
        // conformance runner, inspect's model summary, plan report and arena diagram, .npy files.
        // Resources/: the conformance manifest (ConformanceManifest.fovea()).
        .target(
            name: "FoveaTools",
            dependencies: ["Fovea", "FoveaCore", "FoveaONNX", "FoveaCoreML", "FoveaKernelsBackend", "CFoveaKernels"],
            resources: [.copy("Resources/onnx-conformance-manifest.txt")]
        ),

        // Create ML-style training (`fovea train`): features from a loaded classifier,
        // an L-BFGS logistic-regression head (libLBFGS, Debian: liblbfgs-dev), export.
        // The `Fovea` library product does not depend on it.
        .systemLibrary(name: "CLBFGS", providers: [.apt(["liblbfgs-dev"])]),
        .target(name: "FoveaTraining", dependencies: ["Fovea", "FoveaCore", "FoveaImage", "FoveaONNX", "FoveaCoreML", "CLBFGS", "COpenBLAS"]),

        .executableTarget(
            name: "fovea",
            dependencies: ["Fovea", "FoveaFrames", "FoveaTools", "FoveaCore", "FoveaImage", "FoveaTraining", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // Many classifications from many tasks in one process: resident memory and
        // results against a sequential run (README, "Limits"). A tool, not a test.
        .executableTarget(
            name: "fovea-soak",
            dependencies: ["Fovea", .product(name: "Atomics", package: "swift-atomics")]
        ),

        // Fuzzing: what one input goes through per parser (FuzzEntry), and the
        // libFuzzer executable over it (scripts/ci/fuzz.sh; README, "Limits").
        .target(name: "FoveaFuzzing", dependencies: ["Fovea", "FoveaTools", "FoveaCore", "FoveaImage", "FoveaONNX", "FoveaCoreML"]),
        .systemLibrary(name: "CLibFuzzer"),
        .executableTarget(name: "fovea-fuzz", dependencies: ["FoveaFuzzing", "CLibFuzzer"]),

        // Triton-style dynamic batching, used by the server package in Server/.
        .target(name: "FoveaBatching"),

        // Shared by every backend's tests: the graph interpreter (oracle),
        // random graphs, memory plan checks, one-op checks against the reference.
        .target(name: "FoveaTestSupport", dependencies: ["FoveaCore"], path: "Tests/FoveaTestSupport"),

        // Counts heap allocations in the test process (steady-state allocation tests).
        .target(name: "CMallocCounter", path: "Tests/CMallocCounter"),

        .testTarget(name: "FoveaCoreTests", dependencies: ["FoveaCore", "FoveaTestSupport", .product(name: "Atomics", package: "swift-atomics")]),
        .testTarget(name: "FoveaONNXTests", dependencies: ["FoveaONNX", "FoveaCore"]),
        .testTarget(name: "FoveaCoreMLTests", dependencies: ["FoveaCoreML", "FoveaONNX", "FoveaCore", "FoveaPortableBackend"]),
        .testTarget(name: "FoveaSIMDTests", dependencies: ["FoveaPortableBackend", "FoveaCore", "FoveaTestSupport"]),
        .testTarget(name: "FoveaKernelsTests", dependencies: ["FoveaKernelsBackend", "FoveaCore", "FoveaTestSupport", "CFoveaKernels"]),
        .testTarget(name: "FoveaBLASTests", dependencies: ["FoveaBLASBackend", "FoveaCore", "FoveaTestSupport"]),
        .testTarget(name: "FoveaImageTests", dependencies: ["FoveaImage", "FoveaCore", "FoveaTestSupport"]),
        .testTarget(name: "CFoveaKernelsTests", dependencies: ["CFoveaKernels", "FoveaCore", "FoveaKernelsBackend"]),
        .testTarget(name: "FoveaTests", dependencies: ["Fovea", "FoveaTools", "FoveaCore", "FoveaImage", "FoveaFrames", "FoveaONNX", "FoveaKernelsBackend", "FoveaTestSupport", "CMallocCounter", "FoveaFuzzing"],
                    exclude: ["Frames/Barcodes"]),
        .testTarget(name: "FoveaTrainingTests", dependencies: ["FoveaTraining", "Fovea", "FoveaTools", "FoveaCore", "FoveaImage"]),
        .testTarget(name: "FoveaBatchingTests", dependencies: ["FoveaBatching"]),
        // The command line's own logic (`@testable import fovea`): path lists,
        // shards, resuming, progress lines.
        .testTarget(name: "FoveaCLITests", dependencies: ["fovea"]),
        // Depends on Fovea and FoveaPlugins alone: compiles only if `import Fovea` exposes the
        // user-facing API and `import FoveaPlugins` the plugin types (the other side:
        // scripts/ci/api-boundary.sh).
        .testTarget(name: "FoveaAPITests", dependencies: ["Fovea", "FoveaPlugins"]),
    ]
)
