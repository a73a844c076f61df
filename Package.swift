// swift-tools-version:6.0
import PackageDescription

// Fovea: an inference engine for convolutional image classifiers.
// Module map and roles: see README.md ("Layout").
let package = Package(
    name: "Fovea",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Fovea", targets: ["Fovea"]),
        .executable(name: "fovea", targets: ["fovea"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        // Graph IR, tensors, shape inference, executor and the reference backend.
        .target(name: "FoveaCore"),

        // ONNX protobuf -> Graph. The generated Swift in Sources/FoveaONNX/Proto is committed.
        .target(
            name: "FoveaONNX",
            dependencies: ["FoveaCore", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            exclude: ["Proto/onnx-subset.proto", "Proto/README.md"]
        ),

        // Image decoding (libjpeg-turbo, libpng, PPM), resampling, crop, tensor conversion.
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .target(name: "FoveaImage", dependencies: ["FoveaCore", "CTurboJPEG", "CPNG"]),

        // Portable backend in pure Swift SIMD.
        .target(name: "FoveaSIMD", dependencies: ["FoveaCore"]),

        // C kernels; also built and tested standalone by CMakeLists.txt + ctest.
        .target(
            name: "CFoveaKernels",
            path: "Kernels",
            exclude: ["tests", "README.md"],
            sources: ["src"],
            publicHeadersPath: "include"
        ),

        // The public face: model loading, classification, conformance runner.
        .target(name: "Fovea", dependencies: ["FoveaCore", "FoveaONNX", "FoveaImage", "FoveaSIMD"]),

        .executableTarget(
            name: "fovea",
            dependencies: ["Fovea", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        .testTarget(name: "FoveaCoreTests", dependencies: ["FoveaCore"]),
        .testTarget(name: "FoveaONNXTests", dependencies: ["FoveaONNX", "FoveaCore"]),
        .testTarget(name: "FoveaSIMDTests", dependencies: ["FoveaSIMD", "FoveaCore"]),
        .testTarget(name: "FoveaImageTests", dependencies: ["FoveaImage", "FoveaCore"]),
        .testTarget(name: "CFoveaKernelsTests", dependencies: ["CFoveaKernels", "FoveaCore"]),
        .testTarget(name: "FoveaTests", dependencies: ["Fovea"]),
    ]
)
