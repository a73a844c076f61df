import Foundation
@_spi(Internals) import Fovea
import FoveaCore

/// Create ML's augmentation options, each off by default. Every enabled option
/// adds one altered copy of each training image; the copy then goes through
/// the same crop, scale and normalization as a photo at classification time.
/// The alterations are drawn from a generator seeded by the training seed, the
/// image's content hash and the option, so a run is reproducible.
public struct ImageAugmentation: OptionSet, Sendable, Hashable {
    /// The options' bits.
    public let rawValue: Int
    /// Creates a set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A random crop keeping 70–100% of each side.
    public static let crop = ImageAugmentation(rawValue: 1 << 0)
    /// A rotation by up to ±20 degrees about the centre (edges filled by clamping).
    public static let rotation = ImageAugmentation(rawValue: 1 << 1)
    /// A box blur of radius 1 to 3 pixels.
    public static let blur = ImageAugmentation(rawValue: 1 << 2)
    /// Brightness times 0.6 to 1.4.
    public static let exposure = ImageAugmentation(rawValue: 1 << 3)
    /// Gaussian noise with a standard deviation of 4 to 16 grey levels.
    public static let noise = ImageAugmentation(rawValue: 1 << 4)
    /// A left-right mirror image.
    public static let flip = ImageAugmentation(rawValue: 1 << 5)

    /// The options by their command-line names, in a fixed order.
    public static let named: [(name: String, option: ImageAugmentation)] = [
        ("crop", .crop), ("rotate", .rotation), ("blur", .blur), ("exposure", .exposure), ("noise", .noise), ("flip", .flip),
    ]

    /// Parses `crop,rotate,flip` (also `none` or an empty string).
    public init(parsing list: String) throws {
        self = []
        for item in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where item != "none" && !item.isEmpty {
            guard let option = Self.named.first(where: { $0.name == item || ($0.name == "rotate" && item == "rotation") }) else {
                throw FoveaError(.invalidArgument, "unknown augmentation '\(item)' (known: \(Self.named.map(\.name).joined(separator: ", ")))")
            }
            insert(option.option)
        }
    }

    /// The enabled options, one by one, in ``named`` order.
    public var members: [(name: String, option: ImageAugmentation)] { Self.named.filter { contains($0.option) } }

    /// One altered copy of `image` for a single option (the same for the same seed).
    ///
    /// - Throws: `.invalidArgument` unless `option` is exactly one option.
    public static func apply(_ option: ImageAugmentation, to image: RGBImage, seed: UInt64) throws -> RGBImage {
        guard option.rawValue != 0, option.rawValue & (option.rawValue - 1) == 0, named.contains(where: { $0.option == option }) else {
            throw FoveaError(.invalidArgument, "an augmented copy takes exactly one option (got \(option.members.map(\.name)))")
        }
        var random = SeededGenerator(seed: seed)
        let w = image.width, h = image.height
        let source = image.pixels
        func sample(_ x: Int, _ y: Int, _ c: Int) -> UInt8 {
            source[(min(max(y, 0), h - 1) * w + min(max(x, 0), w - 1)) * 3 + c]
        }
        var out = [UInt8](repeating: 0, count: w * h * 3)
        switch option {
        case .crop:
            let cw = max(1, Int(Double(w) * Double.random(in: 0.7...1, using: &random)))
            let ch = max(1, Int(Double(h) * Double.random(in: 0.7...1, using: &random)))
            let x0 = Int.random(in: 0...(w - cw), using: &random), y0 = Int.random(in: 0...(h - ch), using: &random)
            var cropped = [UInt8](repeating: 0, count: cw * ch * 3)
            for y in 0..<ch { for x in 0..<cw { for c in 0..<3 { cropped[(y * cw + x) * 3 + c] = sample(x0 + x, y0 + y, c) } } }
            return try RGBImage(width: cw, height: ch, pixels: cropped)
        case .rotation:
            let angle = Double.random(in: -20...20, using: &random) * .pi / 180
            let (cx, cy) = (Double(w - 1) / 2, Double(h - 1) / 2)
            let (cosA, sinA) = (cos(angle), sin(angle))
            for y in 0..<h {
                for x in 0..<w {
                    // Nearest source pixel of the inverse rotation.
                    let dx = Double(x) - cx, dy = Double(y) - cy
                    let sx = Int((cosA * dx + sinA * dy + cx).rounded()), sy = Int((-sinA * dx + cosA * dy + cy).rounded())
                    for c in 0..<3 { out[(y * w + x) * 3 + c] = sample(sx, sy, c) }
                }
            }
        case .blur:
            let radius = Int.random(in: 1...3, using: &random)
            let taps = Double((2 * radius + 1) * (2 * radius + 1))
            for y in 0..<h {
                for x in 0..<w {
                    for c in 0..<3 {
                        var sum = 0
                        for j in -radius...radius { for i in -radius...radius { sum += Int(sample(x + i, y + j, c)) } }
                        out[(y * w + x) * 3 + c] = UInt8((Double(sum) / taps).rounded())
                    }
                }
            }
        case .exposure:
            let gain = Double.random(in: 0.6...1.4, using: &random)
            for i in out.indices { out[i] = UInt8(min(255, (Double(source[i]) * gain).rounded())) }
        case .noise:
            let sigma = Double.random(in: 4...16, using: &random)
            for i in out.indices {
                // Box–Muller.
                let u1 = Double.random(in: Double.ulpOfOne...1, using: &random), u2 = Double.random(in: 0..<1, using: &random)
                let noise = sigma * (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
                out[i] = UInt8(min(255, max(0, (Double(source[i]) + noise).rounded())))
            }
        default:  // .flip, the only option left
            for y in 0..<h { for x in 0..<w { for c in 0..<3 { out[(y * w + x) * 3 + c] = sample(w - 1 - x, y, c) } } }
        }
        return try RGBImage(width: w, height: h, pixels: out)
    }
}
