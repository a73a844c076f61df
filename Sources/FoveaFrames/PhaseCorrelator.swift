import CFFTW
import FoveaCore
import FoveaImage
import Foundation

/// The translation between two frames by phase correlation (Kuglin and Hines,
/// 1975), the method behind OpenCV's `phaseCorrelate` and scikit-image's
/// `phase_cross_correlation`:
///
/// 1. each frame becomes a ``LuminanceGrid`` (longer side at most `maxSide`),
///    its mean is removed (a flat frame then has no signal at all) and a Hann
///    window tapers its borders, so the FFT's wrap-around sees no edge;
/// 2. the cross-power spectrum `Fa · conj(Fb)` keeps only its phase, weighted by
///    a Gaussian low-pass (σ = 1 cell), so that its inverse FFT is a Gaussian
///    peak centred on the shift; noise at high frequencies is damped;
/// 3. the peak is located to a fraction of a cell by fitting a parabola to the
///    logarithm of the peak and its neighbours, exact for a Gaussian.
///
/// The peak's height, relative to that of a frame correlated with itself, is
/// the confidence: 1 for identical content, near 0 for unrelated or flat frames.
///
/// An instance owns its FFTW plans and buffers for one grid size and is not
/// thread-safe: use one per thread (making one costs well under a millisecond).
public final class PhaseCorrelator {
    /// The grid both frames are reduced to.
    public let gridWidth: Int, gridHeight: Int, factor: Int
    /// The source frame size this correlator takes.
    public let frameWidth: Int, frameHeight: Int
    /// The longer side the grid may have.
    public let maxSide: Int

    private let spectrumCount: Int
    private let window: [Float]
    private let weights: [Float]
    private let selfPeak: Float
    private let real: UnsafeMutablePointer<Float>
    private let complex: UnsafeMutablePointer<fftwf_complex>
    private let forward: fftwf_plan
    private let inverse: fftwf_plan

    /// The longer side of the analysis grid by default (a 640×480 frame is
    /// analysed at 320×240).
    public static let defaultMaxSide = 320

    /// Below this standard deviation of the grid's luma (in 0...255 levels), a
    /// frame is taken as textureless: its translation cannot be measured.
    public static let minimumTexture: Float = 1

    /// A correlator for frames of `width × height` pixels.
    ///
    /// - Throws: `.invalidArgument` for a frame smaller than 8×8 pixels, too
    ///   small to measure a translation in.
    public init(width: Int, height: Int, maxSide: Int = PhaseCorrelator.defaultMaxSide) throws {
        guard width >= 8, height >= 8, maxSide >= 8 else {
            throw FoveaError(.invalidArgument, "image registration needs frames of at least 8×8 pixels and a grid of at least 8; got \(width)×\(height), grid \(maxSide)")
        }
        // Both grid sides stay at least 8 cells, even for a long thin frame.
        factor = Swift.max(1, Swift.min((Swift.max(width, height) + maxSide - 1) / maxSide, Swift.min(width, height) / 8))
        frameWidth = width
        frameHeight = height
        self.maxSide = maxSide
        gridWidth = width / factor
        gridHeight = height / factor
        spectrumCount = gridHeight * (gridWidth / 2 + 1)
        (window, weights, selfPeak) = CorrelationTables.shared(width: gridWidth, height: gridHeight)
        real = fftwf_alloc_real(gridWidth * gridHeight)
        complex = fftwf_alloc_complex(spectrumCount)
        (forward, inverse) = FFTWPlanning.lock.withLock { [gridWidth, gridHeight, real, complex] in
            (fftwf_plan_dft_r2c_2d(Int32(gridHeight), Int32(gridWidth), real, complex, FFTWPlanning.estimate),
             fftwf_plan_dft_c2r_2d(Int32(gridHeight), Int32(gridWidth), complex, real, FFTWPlanning.estimate))
        }
    }

    deinit {
        FFTWPlanning.lock.withLock {
            fftwf_destroy_plan(forward)
            fftwf_destroy_plan(inverse)
        }
        fftwf_free(real)
        fftwf_free(complex)
    }

    /// The windowed spectrum of one frame, to correlate with others of the same size.
    ///
    /// - Throws: `.invalidArgument` if the frame's size is not the correlator's.
    public func spectrum(of image: RGBImage) throws -> RegistrationSpectrum {
        guard image.width == frameWidth, image.height == frameHeight else {
            throw FoveaError(.invalidArgument, "image registration needs frames of one size: \(frameWidth)×\(frameHeight) and \(image.width)×\(image.height) differ")
        }
        let grid = LuminanceGrid(image: image, factor: factor)
        let count = Float(grid.values.count)
        let mean = grid.values.reduce(0, +) / count
        let variance = grid.values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / count
        for i in 0..<grid.values.count { real[i] = (grid.values[i] - mean) * window[i] }
        fftwf_execute(forward)
        var values = [Float](repeating: 0, count: spectrumCount * 2)
        for i in 0..<spectrumCount {
            values[2 * i] = complex[i].0
            values[2 * i + 1] = complex[i].1
        }
        return RegistrationSpectrum(frameWidth: frameWidth, frameHeight: frameHeight, factor: factor,
                                    values: values, isTextured: variance.squareRoot() >= PhaseCorrelator.minimumTexture)
    }

    /// The shift that moves `floating`'s content onto `reference`'s, in source
    /// pixels, x to the right and y **down** (image rows), and its confidence in 0...1.
    /// Either frame being textureless gives `(0, 0)` with confidence 0.
    public func translation(reference: RegistrationSpectrum, floating: RegistrationSpectrum) throws -> (dx: Double, dy: Double, confidence: Double) {
        for spectrum in [reference, floating] where spectrum.frameWidth != frameWidth || spectrum.frameHeight != frameHeight || spectrum.factor != factor {
            throw FoveaError(.invalidArgument, "image registration needs frames of one size: \(frameWidth)×\(frameHeight) and \(spectrum.frameWidth)×\(spectrum.frameHeight) differ")
        }
        guard reference.isTextured, floating.isTextured else { return (0, 0, 0) }
        // Phase of Fa · conj(Fb), Gaussian-weighted.
        var largest: Float = 0
        for i in 0..<spectrumCount {
            let (ar, ai) = (reference.values[2 * i], reference.values[2 * i + 1])
            let (br, bi) = (floating.values[2 * i], floating.values[2 * i + 1])
            let magnitude = ((ar * ar + ai * ai) * (br * br + bi * bi)).squareRoot()
            largest = Swift.max(largest, magnitude)
        }
        // Frequencies 10^5 times weaker in amplitude than the strongest carry only rounding noise.
        let floor = largest * 1e-10
        for i in 0..<spectrumCount {
            let (ar, ai) = (reference.values[2 * i], reference.values[2 * i + 1])
            let (br, bi) = (floating.values[2 * i], floating.values[2 * i + 1])
            let re = ar * br + ai * bi, im = ai * br - ar * bi
            let magnitude = (re * re + im * im).squareRoot()
            let scale = magnitude > floor ? weights[i] / magnitude : 0
            complex[i] = (re * scale, im * scale)
        }
        fftwf_execute(inverse)
        let surface = UnsafeBufferPointer(start: real, count: gridWidth * gridHeight)
        var best = 0
        for i in 1..<surface.count where surface[i] > surface[best] { best = i }
        let (peakX, peakY) = (best % gridWidth, best / gridWidth)
        let at = { (x: Int, y: Int) -> Float in
            surface[((y + self.gridHeight) % self.gridHeight) * self.gridWidth + (x + self.gridWidth) % self.gridWidth]
        }
        let peak = at(peakX, peakY)
        let offsetX = SubpixelPeak.offset(left: at(peakX - 1, peakY), centre: peak, right: at(peakX + 1, peakY))
        let offsetY = SubpixelPeak.offset(left: at(peakX, peakY - 1), centre: peak, right: at(peakX, peakY + 1))
        // Peaks past half the grid are negative shifts (the FFT wraps around).
        let cellsX = Double(peakX > gridWidth / 2 ? peakX - gridWidth : peakX) + offsetX
        let cellsY = Double(peakY > gridHeight / 2 ? peakY - gridHeight : peakY) + offsetY
        let confidence = Double(Swift.min(1, Swift.max(0, peak / selfPeak)))
        return (cellsX * Double(factor), cellsY * Double(factor), confidence)
    }

    /// The separable Hann window, row-major.
    static func hannWindow(width: Int, height: Int) -> [Float] {
        func hann(_ n: Int) -> [Float] {
            (0..<n).map { 0.5 - 0.5 * Float(cos(2 * Double.pi * (Double($0) + 0.5) / Double(n))) }
        }
        let across = hann(width), down = hann(height)
        return down.flatMap { v in across.map { $0 * v } }
    }

    /// The Gaussian low-pass over the half spectrum (`height × (width/2 + 1)`)
    /// whose inverse transform is a Gaussian of standard deviation `sigma`
    /// cells, and the inverse transform's value at 0 for unit phases: the
    /// height of a frame's peak against itself.
    static func gaussianWeights(width: Int, height: Int, sigma: Double) -> ([Float], Float) {
        let half = width / 2 + 1
        var weights = [Float](repeating: 0, count: height * half)
        var fullSum = 0.0
        for v in 0..<height {
            let fy = Double(v <= height / 2 ? v : v - height) / Double(height)
            for u in 0..<width {
                let fx = Double(u <= width / 2 ? u : u - width) / Double(width)
                let w = exp(-2 * Double.pi * Double.pi * sigma * sigma * (fx * fx + fy * fy))
                fullSum += w
                if u < half { weights[v * half + u] = Float(w) }
            }
        }
        // FFTW's inverse is unnormalized: the self-peak is the sum over the full spectrum.
        return (weights, Float(fullSum))
    }
}
