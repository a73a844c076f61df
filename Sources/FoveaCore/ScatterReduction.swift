/// How ScatterND combines an update with the element it lands on (ONNX's
/// `reduction` attribute: `add` and `mul` from opset 16, `max` and `min` from 18).
public enum ScatterReduction: String, Sendable, Equatable, CaseIterable {
    /// The update replaces the element.
    case none
    case add
    case mul
    case max
    case min
}
