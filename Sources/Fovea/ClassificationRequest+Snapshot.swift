import Foundation

extension ClassificationRequest {
    /// A request's settings as one perform reads them, with the work they
    /// define: crop and scale, normalize, run, rank. A value, so that a task
    /// changing the request meanwhile cannot change a perform under way.
    struct Snapshot: Sendable {
        let model: Model
        let input: ImageInputDescription
        let scoresOutput: String
        let settings: Settings

        var regionOfInterest: CGRect { settings.regionOfInterest }
        var completionHandler: CompletionHandler? { settings.completionHandler }

        /// Threads for preparing pictures: the model's (``ModelConfiguration/effectiveThreads``).
        var preparationThreads: Int { model.configuration.effectiveThreads }

        private var location: FoveaError.Location { .init(file: model.path.isEmpty ? nil : model.path) }

        func geometry(forImageWidth width: Int, height: Int) throws -> CropAndScaleGeometry {
            try settings.imageCropAndScaleOption.geometry(forImageWidth: width, height: height, width: input.width,
                                                          height: input.height, cropFraction: input.cropFraction)
        }

        func preparedImage(for image: RGBImage) throws -> RGBImage {
            let region = try regionOfInterest.crop(image)
            return try region.rendered(geometry(forImageWidth: region.width, height: region.height), threads: preparationThreads)
        }

        func inputTensor(for image: RGBImage) throws -> Tensor {
            let region = try regionOfInterest.crop(image)
            return try inputTensor(for: region, geometry: geometry(forImageWidth: region.width, height: region.height),
                                   threads: preparationThreads)
        }

        /// The input tensor for `image` fitted by `geometry` (this request's
        /// geometry for the full picture, or that geometry reduced for a reduced
        /// decode of it), with rows split across `threads`.
        func inputTensor(for image: RGBImage, geometry: CropAndScaleGeometry, threads: Int) throws -> Tensor {
            try input.normalization.tensor(from: image, geometry: geometry, threads: threads)
        }

        func observations(for image: RGBImage) throws -> [ClassificationObservation] {
            try observations(forInputTensor: try inputTensor(for: image), threads: nil)
        }

        func observations(forBatch images: [RGBImage]) throws -> [[ClassificationObservation]] {
            guard images.count > 1 else { return try images.map(observations(for:)) }
            let regions = try images.map { try regionOfInterest.crop($0) }
            let geometries = try regions.map { try geometry(forImageWidth: $0.width, height: $0.height) }
            let tensor = try input.normalization.tensor(from: regions, geometries: geometries, threads: preparationThreads)
            return try observations(forBatchTensor: tensor) ?? images.map(observations(for:))
        }

        /// The observations of each image of an `N×C×H×W` input, run as one
        /// batch, or `nil` when the model cannot run it (a fixed batch size).
        /// `threads`: as in ``Model/predict(_:threads:)``.
        func observations(forBatchTensor tensor: Tensor, threads: Int? = nil) throws -> [[ClassificationObservation]]? {
            let count = tensor.shape.first ?? 0
            guard let outputs = try? model.predict([input.name: tensor], threads: threads), let scores = outputs[scoresOutput],
                  scores.shape.first == count, count > 0, let values = scores.floats else { return nil }
            let size = values.count / count
            return (0..<count).map { row in observations(forScores: Array(values[row * size ..< (row + 1) * size])) }
        }

        func observations(forPreparedImage prepared: RGBImage) throws -> [ClassificationObservation] {
            try observations(forInputTensor: try input.normalization.tensor(from: [prepared]), threads: nil)
        }

        /// Runs an already normalized `1×C×H×W` tensor on `threads` threads, as in ``Model/predict(_:threads:)``.
        func observations(forInputTensor tensor: Tensor, threads: Int?) throws -> [ClassificationObservation] {
            let outputs = try model.predict([input.name: tensor], threads: threads)
            guard let scores = outputs[scoresOutput]?.floats else {
                throw FoveaError(.invalidModel, "output '\(scoresOutput)' is not a float tensor", location: location)
            }
            return observations(forScores: scores)
        }

        func observations(forScores scores: [Float]) -> [ClassificationObservation] {
            let probabilities = model.modelDescription.probabilities(fromScores: scores)
            let ranked = ClassificationObservation.ranked(probabilities: probabilities, labels: model.modelDescription.classLabels,
                                                          limit: settings.maximumObservations.map { Swift.max(0, $0) })
            return ranked.filter { $0.confidence >= settings.minimumConfidence }
        }
    }
}
