// swift-tools-version:6.1
import PackageDescription

// `fovea-serve`: the Open Inference Protocol (KServe v2) over HTTP and gRPC
// for Fovea models. A package of its own so that the root package's
// `swift test` never builds Hummingbird, gRPC and their dependencies; it uses
// only the `Fovea` library product of the package one folder up.
let package = Package(
    name: "FoveaServer",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "FoveaServer", targets: ["FoveaServer"]),
        .executable(name: "fovea-serve", targets: ["fovea-serve"]),
    ],
    dependencies: [
        .package(name: "Fovea", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // The protocol's types and request decoders (REST and gRPC messages): a module
        // without Hummingbird, gRPC or Fovea, so that its fuzzers build in little time.
        .target(
            name: "FoveaServerProtocol",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")]
        ),
        // The protocol, the batcher, metrics, the HTTP and gRPC front ends and
        // the page. The generated gRPC Swift in Sources/FoveaServer/Proto is committed.
        .target(
            name: "FoveaServer",
            dependencies: [
                "FoveaServerProtocol",
                .product(name: "Fovea", package: "Fovea"),
                .product(name: "FoveaBatching", package: "Fovea"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["Proto/open-inference-v2.proto", "Proto/README.md"]
        ),
        .executableTarget(
            name: "fovea-serve",
            dependencies: ["FoveaServer", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // libFuzzer over the request decoders (scripts/ci/fuzz.sh serve-rest serve-grpc).
        .systemLibrary(name: "CLibFuzzer"),
        .executableTarget(name: "fovea-serve-fuzz", dependencies: ["FoveaServerProtocol", "CLibFuzzer"]),
        .testTarget(
            name: "FoveaServerTests",
            dependencies: [
                "FoveaServer",
                "FoveaServerProtocol",
                .product(name: "Fovea", package: "Fovea"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ]
)
