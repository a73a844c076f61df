import Foundation

/// The shared test data: `../shared/models` beside the checkout, two folders above this package.
enum TestModels {
    /// This file is `<root>/Server/Tests/FoveaServerTests/TestModels.swift`.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let models = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/models").path
    static let squeezenet = models + "/squeezenet1.1.onnx"
    static let redPanda = models + "/photos/red_panda.jpg"
}
