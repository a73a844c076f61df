import ArgumentParser
import Foundation
@_spi(Internals) import Fovea
import FoveaCore
import FoveaTraining

struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure a classifier on labelled folders: accuracy, per-class precision and recall, confusion matrix.",
        discussion: """
        Each subfolder of DATA_DIR holds images of the class it is named after; \
        the model (for example one written by `fovea train`) must name its \
        classes. --json prints {"accuracy": 0 to 1, "classes", "precision", \
        "recall", "confusion": [[true × predicted]], "count"}.
        """)

    @Option(help: "The classifier (.onnx with labels, or .mlmodel).")
    var model: String

    @Argument(help: "One subfolder of images per class.")
    var dataDirectory: String

    @Flag(help: "Print JSON.")
    var json = false

    @Option(help: "Also draw the confusion matrix into this SVG file.")
    var svg: String?

    @OptionGroup var backend: BackendOptions

    func run() throws {
        let loaded = try Model(contentsOfFile: model, configuration: backend.configuration)
        let (metrics, unreadable) = try ClassificationMetrics.evaluating(loaded, on: dataDirectory)
        for file in unreadable { printWarning("skipped unreadable image \(file.path): \(file.message)") }
        if let svg {
            do { try Data(metrics.svg.utf8).write(to: URL(fileURLWithPath: svg)) } catch {
                throw FoveaError(.io, "cannot write the picture (\(error.localizedDescription))", location: .init(file: svg))
            }
        }
        if json {
            let data = try JSONSerialization.data(withJSONObject: metrics.jsonObject, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            // Class names come from folder and label names: escape each line.
            for line in metrics.table.split(separator: "\n", omittingEmptySubsequences: false) { print(SafeText.escaped(String(line))) }
        }
    }
}
