import Foundation
@_spi(Internals) import Fovea

/// Turns images into feature vectors with a pretrained classifier: the network
/// is cut at a feature layer (see ``FeatureLayer``), planned and run like any
/// model (on the fastest backend, with every thread), and each vector is
/// cached on disk (see ``FeatureCache``).
public final class FeatureExtractor: Sendable {
    /// The pretrained classifier, with its preprocessing.
    public let baseModel: Model
    /// Where the features are read.
    public let layer: FeatureLayer
    /// The hash of the base model file's bytes.
    public let modelHash: String
    /// Where feature vectors are stored between runs; `nil` when caching is off.
    public let cache: FeatureCache?
    private let featureModel: Model
    private let request: ClassificationRequest
    private let cacheKey: String

    /// Loads the base model (ONNX or Core ML) and cuts it at `featureLayer`
    /// (default: ``FeatureLayer/defaultLayer(in:)``), to run in `precision`
    /// (`ModelConfiguration.precision`; bfloat16 features are cached apart).
    ///
    /// - Throws: `FoveaError` for a model that cannot be loaded, has no image
    ///   input, or has no such layer.
    public init(baseModelAt path: String, featureLayer: String? = nil, threads: Int? = nil, precision: Precision = .f32,
                cache: FeatureCache? = FeatureCache()) throws {
        let configuration = ModelConfiguration(threads: threads, precision: precision)
        baseModel = try Model(contentsOfFile: path, configuration: configuration)
        request = try ClassificationRequest(model: baseModel)
        let graph = try ModelFile.loadGraph(contentsOf: path)
        layer = try featureLayer.map { try FeatureLayer.named($0, in: graph) } ?? FeatureLayer.defaultLayer(in: graph)
        featureModel = try Model(graph: try layer.featureGraph(from: graph), path: path, configuration: configuration)
        modelHash = ContentHash.hex(of: try Data(contentsOf: URL(fileURLWithPath: path)))
        let image = baseModel.modelDescription.imageInput
        let preprocessing = image.map { "\($0.width)x\($0.height) \($0.normalization) \($0.cropFraction ?? 1)" } ?? ""
        // float32 keeps the key it always had, so existing caches stay valid.
        let arithmetic = precision == .f32 ? "" : " \(precision)"
        cacheKey = ContentHash.hex(of: "\(modelHash) \(layer.name) \(preprocessing) centerCrop\(arithmetic)")
        self.cache = cache
    }

    /// One image to turn into features: a file, and an augmentation (or none).
    public struct Job: Sendable {
        /// The image file.
        public let path: String
        /// A single option, or `[]` for the image as it is.
        public let augmentation: ImageAugmentation
        /// Seeds the augmentation's random choices (ignored without one).
        public let seed: UInt64
        /// A job for the image at `path`, altered by one `augmentation` option (or none).
        public init(path: String, augmentation: ImageAugmentation = [], seed: UInt64 = 0) {
            self.path = path
            self.augmentation = augmentation
            self.seed = seed
        }
    }

    /// What ``extract(_:progress:)`` produced.
    public struct Batch: Sendable {
        /// One per job; `nil` for an image that could not be read (see ``failures``).
        public let features: [[Float]?]
        /// Unreadable images: path and message.
        public let failures: [(path: String, message: String)]
        /// Vectors the network computed, and vectors read from the cache.
        public let computed: Int
        /// Vectors read from the cache.
        public let cached: Int
        /// Wall-clock seconds the extraction took.
        public let seconds: Double
    }

    /// Features for each job, in order. Decoding (and the cache lookup) of the
    /// next image runs on another thread while the network runs the current one.
    ///
    /// - Parameter progress: called after each image with (done, total).
    public func extract(_ jobs: [Job], progress: ((Int, Int) -> Void)? = nil) -> Batch {
        let start = Date()
        var features: [[Float]?] = []
        var failures: [(String, String)] = []
        var computed = 0, cached = 0
        var next = jobs.isEmpty ? nil : PreparedJob.start(jobs[0], extractor: self)
        for index in jobs.indices {
            let current = next!.wait()
            next = index + 1 < jobs.count ? PreparedJob.start(jobs[index + 1], extractor: self) : nil
            switch current {
            case .cached(let vector):
                features.append(vector)
                cached += 1
            case .input(let tensor, let hash, let augmentationKey):
                do {
                    guard let vector = try featureModel.predict([layerInputName: tensor])[FeatureLayer.outputName]?.floats else {
                        throw FoveaError(.invalidModel, "the feature layer gave no float values")
                    }
                    cache?.store(vector, extractorKey: cacheKey, augmentation: augmentationKey, imageHash: hash)
                    features.append(vector)
                    computed += 1
                } catch {
                    features.append(nil)
                    failures.append((jobs[index].path, "\(error)"))
                }
            case .failed(let message):
                features.append(nil)
                failures.append((jobs[index].path, message))
            }
            progress?(index + 1, jobs.count)
        }
        return Batch(features: features, failures: failures, computed: computed, cached: cached,
                     seconds: Date().timeIntervalSince(start))
    }

    private var layerInputName: String { request.model.modelDescription.imageInput?.name ?? baseModel.graph.inputs[0].name }

    /// Reads, hashes, looks up and (on a miss) decodes and preprocesses one job.
    fileprivate func prepare(_ job: Job) -> PreparedJob.Outcome {
        do {
            let data = try ImageDecoder.data(contentsOf: job.path)
            let hash = ContentHash.hex(of: data)
            let augmentationKey = job.augmentation.isEmpty ? "none"
                : (job.augmentation.members.first?.name ?? "aug") + "-\(job.seed)"
            if let vector = cache?.load(extractorKey: cacheKey, augmentation: augmentationKey, imageHash: hash, width: layer.width) {
                return .cached(vector)
            }
            var image = try ImageRequestHandler(data: data, source: job.path).image
            if !job.augmentation.isEmpty {
                // Seeded by the run's seed, the image's contents and the option.
                let seed = (job.seed &* 0x9e37_79b9_7f4a_7c15) ^ (UInt64(hash, radix: 16) ?? 0) ^ (UInt64(job.augmentation.rawValue) << 56)
                image = try ImageAugmentation.apply(job.augmentation, to: image, seed: seed)
            }
            return .input(try request.inputTensor(for: image), hash: hash, augmentationKey: augmentationKey)
        } catch {
            return .failed("\(error)")
        }
    }
}

/// One job being prepared on a background thread.
private final class PreparedJob: @unchecked Sendable {
    // @unchecked: `outcome` is written once before `done` is signalled and read after waiting on it.
    enum Outcome {
        case cached([Float])
        case input(Tensor, hash: String, augmentationKey: String)
        case failed(String)
    }

    private let done = DispatchSemaphore(value: 0)
    private var outcome: Outcome = .failed("not prepared")

    static func start(_ job: FeatureExtractor.Job, extractor: FeatureExtractor) -> PreparedJob {
        let prepared = PreparedJob()
        DispatchQueue.global().async {
            prepared.outcome = extractor.prepare(job)
            prepared.done.signal()
        }
        return prepared
    }

    func wait() -> Outcome {
        done.wait()
        return outcome
    }
}
