// swift-tools-version:6.0
import PackageDescription

// Images per second for N concurrent tasks sharing one model, at the default
// configuration (issue 37, "Concurrency that composes"). Depends on Fovea by path:
// FOVEA_PATH picks the checkout (default: this repository), so an older build can
// be measured beside this one. Run it in release with the CPU flags:
//   swift build -c release -Xswiftc -target-cpu -Xswiftc native
let foveaPath = Context.environment["FOVEA_PATH"] ?? "\(Context.packageDirectory)/../.."

let package = Package(
    name: "ConcurrentTasks",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Fovea", path: foveaPath)],
    targets: [
        .executableTarget(name: "ConcurrentTasks", dependencies: [.product(name: "Fovea", package: "Fovea")]),
    ]
)
