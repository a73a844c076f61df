import Fovea
import Logging

extension ServedModel {
    /// Loads each source's model with its labels: `labels[name]` when given,
    /// else the model's own (sidecar, Core ML), else ImageNet's 1000 for a
    /// 1000-class classifier (logged, so nobody mistakes it for the model's own).
    static func load(_ options: ServerOptions, metrics: ServerMetrics, workers: RequestWorkers, logger: Logger) throws -> [ServedModel] {
        try options.models.map { source in
            var configuration = options.modelConfiguration
            if let precision = options.precisions[source.name] { configuration.precision = precision }
            var model = try Model(contentsOfFile: source.path, configuration: configuration)
            if let labels = options.labels[source.name] {
                model = try model.describing { $0.classLabels = try ClassLabels(namedOrAt: labels) }
            } else if !model.hasClassLabels, model.modelDescription.imageInput != nil,
                      model.classCount == ClassLabels.imageNet1kClassCount {
                model = try model.describing { $0.classLabels = try ClassLabels.imageNet1k }
                logger.notice("model has no labels; using ImageNet's 1000 (give --labels \(source.name)=FILE for others)",
                              metadata: ["model": "\(source.name)"])
            }
            let served = try ServedModel(name: source.name, model: model, batching: options.batching,
                                         imageLimits: ImageDecodingLimits(maxPixelCount: options.limits.maxImagePixels),
                                         maxRequestPixels: options.limits.maxRequestPixels, workers: workers, metrics: metrics)
            logger.info("model loaded", metadata: ["model": "\(source.name)", "path": "\(source.path)",
"precision": "\(configuration.precision)",
                                                   "max_batch": "\(served.batchable ? options.batching.maxBatchSize : 1)",
                                                   "inputs": "\(served.metadata.inputs.map { "\($0.name):\($0.datatype.rawValue)\($0.shape)" }.joined(separator: ","))"])
            return served
        }
    }
}
