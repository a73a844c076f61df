import ArgumentParser

/// `--shard I/N`: the I-th (0-based, as Kubernetes' JOB_COMPLETION_INDEX) of N
/// parts of the input, dealt round-robin by line number: line L belongs to part
/// (L - 1) mod N.
///
/// By line number rather than by a hash of the path: the parts come out equal to
/// within one photo whatever the paths look like, consecutive photos (often one
/// slow directory or one large camera's files) are spread over all the parts,
/// the rule is one line in any language, with no hash function to keep identical
/// across versions, and a part's photos are numbered as `--resume` counts them.
/// The price: every part must read the same list (same lines, same order), which
/// is what an Indexed Job's shared manifest gives.
struct Shard: Equatable, Sendable, ExpressibleByArgument {
    /// This part, `0..<count`.
    var index: Int
    /// How many parts.
    var count: Int

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
              count >= 1, (0..<count).contains(index) else { return nil }
        self.init(index: index, count: count)
    }

    var defaultValueDescription: String { "\(index)/\(count)" }

    /// Whether input line `number` (1-based) is in this part.
    func contains(line number: Int) -> Bool {
        (number - 1) % count == index
    }

    /// How many of lines 1...`lines` are in this part.
    func lineCount(among lines: Int) -> Int {
        lines > index ? (lines - index - 1) / count + 1 : 0
    }
}
