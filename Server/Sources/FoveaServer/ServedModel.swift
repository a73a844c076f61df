@_spi(Internals) import Fovea
import FoveaBatching
import Foundation
import Logging
import FoveaServerProtocol

/// One model as the server serves it: its protocol metadata, the photo
/// input, and its dynamic batcher. ``infer(_:)`` turns a protocol request into
/// rows of one input each, runs them through the batcher, and puts the rows'
/// outputs back together.
public final class ServedModel: Sendable {
    /// The name clients use in `/v2/models/{name}`.
    public let name: String
    /// The one version served.
    public let version: String
    public let model: Model
    public let metadata: ModelMetadata
    /// The name of the BYTES input that takes encoded photos (JPEG, PNG), when the model classifies images.
    public let imageInputName: String?
    private let imageRequest: ClassificationRequest?
    private let imageLimits: ImageDecodingLimits
    /// The most pixels all the photos of one request may have together.
    private let maxRequestPixels: Int
    /// Where photos are decoded: never the cooperative threads.
    private let workers: RequestWorkers
    private let batcher: DynamicBatcher<[String: Tensor], [String: Tensor]>
    /// Whether requests of N > 1 rows are split into rows and batched (metadata shows -1 for the batch).
    public let batchable: Bool

    /// The BYTES photo input is called this, unless the model has an input of that name.
    public static let defaultImageInputName = "image"

    /// - Parameters:
    ///   - batching: the batcher's limits; a model that cannot run batches of more than one gets `maxBatchSize` 1.
    ///   - imageLimits: the decoder's pixel limit for photos.
    ///   - maxRequestPixels: the pixel limit for all the photos of one request.
    ///   - workers: the threads that decode photos.
    public init(name: String, model: Model, version: String = "1", batching: DynamicBatcher<[String: Tensor], [String: Tensor]>.Configuration,
                imageLimits: ImageDecodingLimits = .default, maxRequestPixels: Int = ServerLimits().maxRequestPixels,
                workers: RequestWorkers = .shared, metrics: ServerMetrics? = nil) throws {
        self.name = name
        self.version = version
        self.model = model
        self.imageLimits = imageLimits
        self.maxRequestPixels = maxRequestPixels
        self.workers = workers
        let batchable = ServedModel.runsBatches(model)
        self.batchable = batchable
        var configuration = batching
        if !batchable { configuration.maxBatchSize = 1 }
        let request = model.modelDescription.imageInput == nil ? nil : try ClassificationRequest(model: model)
        let graphInputs = Set(model.graph.inputs.map(\.name))
        let photoName = request == nil ? nil
            : graphInputs.contains(Self.defaultImageInputName) ? Self.defaultImageInputName + "_bytes" : Self.defaultImageInputName
        imageRequest = request
        imageInputName = photoName
        metadata = try ServedModel.metadata(name: name, version: version, model: model, batchable: batchable, imageInputName: photoName)
        let modelName = name
        batcher = DynamicBatcher(
            configuration: configuration,
            compatible: { a, b in a.mapValues(\.shape) == b.mapValues(\.shape) },
            run: { rows in try model.predictions(fromBatch: rows).map(\.outputs) },
            report: { report in metrics?.recordBatch(model: modelName, report) })
    }

    /// Whether the model runs `N×…` inputs for N > 1: its first input's batch
    /// dimension is 1 or symbolic and a plan for a batch of two builds.
    static func runsBatches(_ model: Model) -> Bool {
        guard let input = model.primaryInput, let first = input.dimensions?.first else { return false }
        if case .known(let n) = first, n != 1 { return false }
        guard let declared = input.dimensions?.dropFirst().map({ dimension -> Int? in
            if case .known(let n) = dimension { return n } else { return nil }
        }), declared.allSatisfy({ $0 != nil }), model.graph.inputs.count == 1 else { return false }
        return (try? model.plan(inputShapes: [input.name: [2] + declared.compactMap { $0 }])) != nil
    }

    /// Stops the batcher once the queued requests have run.
    public func shutdown() { batcher.shutdown() }

    /// Runs one protocol request.
    ///
    /// - Throws: ``InferenceError``: `.invalidArgument` for unknown or missing
    ///   inputs, wrong datatypes and shapes, undecodable photos and unknown
    ///   outputs; `.timeout` and `.unavailable` from the batcher.
    public func infer(_ request: InferenceRequest) async throws -> InferenceResponse {
        let rows = try await feedRows(request.inputs, deadline: request.deadline)
        let results = try await withThrowingTaskGroup(of: (Int, [String: Tensor]).self) { group in
            for (index, row) in rows.enumerated() {
                group.addTask { (index, try await self.batcher.submit(row)) }
            }
            var results = [[String: Tensor]](repeating: [:], count: rows.count)
            for try await (index, outputs) in group { results[index] = outputs }
            return results
        }
        let outputs = try responseOutputs(request, rows: results)
        return InferenceResponse(modelName: name, modelVersion: version, id: request.id, outputs: outputs)
    }

    // MARK: Inputs

    /// The request's inputs as rows of one (`1×…` tensors by graph input name).
    private func feedRows(_ inputs: [InferenceTensor], deadline: ContinuousClock.Instant?) async throws -> [[String: Tensor]] {
        var byName: [String: InferenceTensor] = [:]
        for input in inputs {
            guard byName.updateValue(input, forKey: input.name) == nil else {
                throw InferenceError.invalid("input '\(input.name)' is given twice")
            }
        }
        if let image = photoInput(byName) {
            guard inputs.count == 1 else {
                throw InferenceError.invalid("a photo input ('\(image.name)', BYTES) is given alone; got \(inputs.map(\.name))")
            }
            return try await photoRows(image, deadline: deadline)
        }
        let graphInputs = model.graph.inputs
        for name in byName.keys where !graphInputs.contains(where: { $0.name == name }) {
            throw InferenceError.invalid("model '\(self.name)' has no input '\(name)' (inputs: \(metadata.inputs.map(\.name).joined(separator: ", ")))")
        }
        var rowCount: Int?
        var split: [String: [Tensor]] = [:]
        for declared in graphInputs {
            guard let input = byName[declared.name] else {
                throw InferenceError.invalid("input '\(declared.name)' is missing")
            }
            let expected = InferenceDatatype(declared.dataType)
            guard input.datatype == expected else {
                throw InferenceError.invalid("input '\(declared.name)' has datatype \(input.datatype.rawValue); the model expects \(expected.rawValue)")
            }
            try checkShape(input, declared: declared)
            let rows = batchable ? input.shape[0] : 1
            guard rowCount == nil || rowCount == rows else {
                throw InferenceError.invalid("inputs have different batch sizes (\(rowCount ?? 0) and \(rows))")
            }
            rowCount = rows
            let tensor = try input.foveaTensor()
            split[declared.name] = batchable ? try Self.rows(of: tensor) : [tensor]
        }
        return (0..<(rowCount ?? 0)).map { row in split.mapValues { $0[row] } }
    }

    /// The BYTES photo input, under its own name or the model's image input's name.
    private func photoInput(_ byName: [String: InferenceTensor]) -> InferenceTensor? {
        guard let imageInputName else { return nil }
        if let input = byName[imageInputName] { return input }
        if let tensorName = imageRequest?.model.modelDescription.imageInput?.name,
           let input = byName[tensorName], input.datatype == .bytes { return input }
        return nil
    }

    /// Decodes, orients and prepares each photo as `fovea classify` does, on the
    /// worker threads, within the request's pixel budget (checked from the
    /// headers before any decoding) and its deadline (checked before each photo).
    private func photoRows(_ input: InferenceTensor, deadline: ContinuousClock.Instant?) async throws -> [[String: Tensor]] {
        guard case .bytes(let photos) = input.elements, let imageRequest,
              let tensorName = model.modelDescription.imageInput?.name else {
            throw InferenceError.invalid("input '\(input.name)' takes BYTES (encoded photos: JPEG, PNG, HEIC, AVIF, WebP or PPM), not \(input.datatype.rawValue)")
        }
        guard input.shape.count == 1 || (input.shape.count == 2 && input.shape[1] == 1), !photos.isEmpty else {
            throw InferenceError.invalid("input '\(input.name)': shape \(input.shape); photos come as [N] or [N, 1] with N ≥ 1, one photo per element")
        }
        // A header the sniffer does not know counts as the per-photo limit: the most the decoder would do.
        let pixels = photos.reduce(0) { TensorSize.sum($0, PhotoHeader.pixels($1).map { min($0, imageLimits.maxPixelCount) } ?? imageLimits.maxPixelCount) }
        guard pixels <= maxRequestPixels else {
            throw InferenceError(.tooLarge, "input '\(input.name)': the request's \(photos.count) photos hold \(pixels) pixels; the limit per request is \(maxRequestPixels)")
        }
        let limits = imageLimits
        var rows: [[String: Tensor]] = []
        for (index, data) in photos.enumerated() {
            if let deadline, ContinuousClock.now >= deadline {
                throw InferenceError(.timeout, "input '\(input.name)': the request's time ran out after decoding \(index) of \(photos.count) photos")
            }
            let source = "\(input.name)[\(index)]"
            let tensor = try await workers.run { () throws -> Tensor in
                do {
                    let handler = try ImageRequestHandler(data: data, source: source, limits: limits)
                    // The handler's entry point, as `fovea classify`: a JPEG decoded at the reduced size the request needs.
                    return try handler.inputTensor(for: imageRequest)
                } catch let error as FoveaError {
                    throw InferenceError.invalid("input '\(input.name)' element \(index): \(error.message)")
                }
            }
            rows.append([tensorName: tensor])
        }
        return rows
    }

    /// Rank and every non-batch dimension must match the model's declaration.
    private func checkShape(_ input: InferenceTensor, declared: ValueInfo) throws {
        let expected = metadata.inputs.first { $0.name == declared.name }?.shape ?? []
        let matches = input.shape.count == expected.count
            && zip(input.shape, expected).allSatisfy { given, wanted in wanted < 0 || given == wanted }
        guard matches, input.shape.first ?? 1 >= 1 else {
            throw InferenceError.invalid("input '\(declared.name)' has shape \(input.shape); the model expects \(expected) (-1: any size ≥ 1)")
        }
    }

    /// Splits an `N×…` tensor into N `1×…` tensors.
    static func rows(of tensor: Tensor) throws -> [Tensor] {
        guard let count = tensor.shape.first, count > 1 else { return [tensor] }
        let rowShape = [1] + tensor.shape.dropFirst()
        let size = tensor.count / count
        switch tensor.storage {
        case .float32(let values):
            return try (0..<count).map { try Tensor(shape: rowShape, floats: Array(values[$0 * size ..< ($0 + 1) * size])) }
        case .int64(let values):
            return try (0..<count).map { try Tensor(shape: rowShape, int64s: Array(values[$0 * size ..< ($0 + 1) * size])) }
        case .bool(let values):
            return try (0..<count).map { try Tensor(shape: rowShape, storage: .bool(Array(values[$0 * size ..< ($0 + 1) * size]))) }
        case .uint8(let values):
            return try (0..<count).map { try Tensor(shape: rowShape, storage: .uint8(Array(values[$0 * size ..< ($0 + 1) * size]))) }
        case .int8(let values):
            return try (0..<count).map { try Tensor(shape: rowShape, storage: .int8(Array(values[$0 * size ..< ($0 + 1) * size]))) }
        case .int32(let values):
            return try (0..<count).map { try Tensor(shape: rowShape, storage: .int32(Array(values[$0 * size ..< ($0 + 1) * size]))) }
        }
    }
}
