// swift-tools-version:6.1
import PackageDescription

// Fovea's benchmarks, kept out of the main package so its build does not pay
// for the benchmark harness. Run everything from this directory:
//   swift package benchmark   (the C kernels pick their ISA at run time; no CPU flags needed)
// or one target: swift package benchmark --target Microkernels (or EndToEnd).
let package = Package(
    name: "FoveaBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Fovea", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "EndToEnd",
            dependencies: [
                .product(name: "Fovea", package: "Fovea"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/EndToEnd",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The C kernels' inner loops alone: GEMM microkernels, SqueezeNet's 1×1 GEMMs and the
        // Winograd transforms, per ISA. CFoveaKernels comes with the Fovea product.
        .executableTarget(
            name: "Microkernels",
            dependencies: [
                .product(name: "Fovea", package: "Fovea"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Microkernels",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
