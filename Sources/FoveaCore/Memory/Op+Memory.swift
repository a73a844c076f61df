/// What the memory planner needs to know about operators, independent of backend.
extension Op {
    /// Operators whose output is their input under another shape (Flatten,
    /// Reshape, Squeeze, Unsqueeze, Identity, inference Dropout): the planner
    /// makes the output a view of the input's bytes and runs nothing.
    public var isView: Bool {
        switch self {
        case .flatten, .reshape, .squeeze, .unsqueeze, .identity, .dropout: return true
        default: return false
        }
    }

    /// Operators where each output element depends only on the same element
    /// of each input (after broadcasting), so the output may share the memory
    /// of an input of the same size.
    public var isElementwise: Bool {
        switch self {
        case .relu, .leakyRelu, .prelu, .sigmoid, .hardSigmoid, .hardSwish, .clip, .unary,
             .add, .sub, .mul, .div, .sum, .pow, .maximum, .minimum, .batchNormalization:
            return true
        default:
            return false
        }
    }

    /// Elementwise operators with one tensor input (plus constant parameters).
    public var isElementwiseUnary: Bool {
        switch self {
        case .relu, .leakyRelu, .sigmoid, .hardSigmoid, .hardSwish, .clip, .unary, .batchNormalization:
            return true
        default:
            return false
        }
    }
}
