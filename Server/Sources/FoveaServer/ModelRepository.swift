import FoveaServerProtocol

/// The models the server serves, by name.
public final class ModelRepository: Sendable {
    /// In the order given, for listings.
    public let models: [ServedModel]

    /// - Throws: `.invalidArgument` for a name used twice.
    public init(_ models: [ServedModel]) throws {
        var seen = Set<String>()
        for model in models where !seen.insert(model.name).inserted {
            throw InferenceError.invalid("two models are named '\(model.name)'")
        }
        self.models = models
    }

    /// The model of that name (and version, when given).
    ///
    /// - Throws: `.notFound` naming the models that exist.
    public func model(named name: String, version: String? = nil) throws -> ServedModel {
        guard let model = models.first(where: { $0.name == name }) else {
            throw InferenceError(.notFound, "no model named '\(name)' (models: \(models.map(\.name).joined(separator: ", ")))")
        }
        if let version, !version.isEmpty, version != model.version {
            throw InferenceError(.notFound, "model '\(name)' has no version '\(version)' (versions: \(model.version))")
        }
        return model
    }

    /// Stops every model's batcher once its queued requests have run.
    public func shutdown() {
        models.forEach { $0.shutdown() }
    }
}
