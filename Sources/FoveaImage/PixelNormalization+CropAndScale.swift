import FoveaCore

extension PixelNormalization {
    /// The model's input tensor `[1, C, H, W]` for `image` fitted by `geometry`
    /// (H × W is the geometry's canvas): crop, scale, channel order and
    /// normalization in one pass over the output, without the intermediate
    /// 8-bit picture. The values are exactly those of
    /// `tensor(from: [image.rendered(geometry)])`.
    ///
    /// - Parameter threads: rows are split across this many threads.
    /// - Throws: `.invalidArgument` for unusable statistics or a geometry made
    ///   for another image size.
    public func tensor(from image: RGBImage, geometry: CropAndScaleGeometry, threads: Int = 1) throws -> Tensor {
        try tensor(from: [image], geometries: [geometry], threads: threads)
    }

    /// An `[N, C, H, W]` tensor from `N` images, each fitted by its geometry;
    /// every geometry must have the same canvas size.
    ///
    /// - Throws: `.invalidArgument` for an empty list, a count mismatch,
    ///   unusable statistics or a geometry made for another image size;
    ///   `.shapeMismatch` when the canvases differ.
    public func tensor(from images: [RGBImage], geometries: [CropAndScaleGeometry], threads: Int = 1) throws -> Tensor {
        try validate()
        guard let first = geometries.first, images.count == geometries.count else {
            throw FoveaError(.invalidArgument, "\(images.count) images and \(geometries.count) geometries: expected one geometry per image, at least one")
        }
        let (width, height) = (first.canvasWidth, first.canvasHeight)
        for (index, geometry) in geometries.enumerated() {
            guard geometry.canvasWidth == width, geometry.canvasHeight == height else {
                throw FoveaError(.shapeMismatch, "image \(index) is fitted to \(geometry.canvasWidth)×\(geometry.canvasHeight); expected \(width)×\(height) like image 0")
            }
            try geometry.validate(for: images[index])
        }
        let channels = channelOrder.channelCount
        let imageSize = channels * width * height
        var floats = [Float](repeating: 0, count: images.count * imageSize)
        let tables = lookupTables()
        floats.withUnsafeMutableBufferPointer { output in
            tables.withUnsafeBufferPointer { tables in
                for (n, image) in images.enumerated() {
                    write(image, geometries[n], tables: tables.baseAddress!, into: output.baseAddress! + n * imageSize, threads: threads)
                }
            }
        }
        return try Tensor(shape: [images.count, channels, height, width], floats: floats)
    }

    /// 256 normalized values per tensor channel, channel after channel: a
    /// lookup beats per-pixel arithmetic, and gives exactly ``value(of:channel:)``.
    func lookupTables() -> [Float] {
        (0..<channelOrder.channelCount).flatMap { channel in (0...255).map { value(of: UInt8($0), channel: channel) } }
    }

    /// Writes one image's `C × H × W` values at `output`.
    private func write(_ image: RGBImage, _ geometry: CropAndScaleGeometry, tables: UnsafePointer<Float>,
                       into output: UnsafeMutablePointer<Float>, threads: Int) {
        let width = geometry.canvasWidth
        let plane = width * geometry.canvasHeight
        let channels = channelOrder.channelCount
        if geometry.cropWidth != width || geometry.cropHeight != geometry.canvasHeight {
            // Letterbox: the canvas outside the picture is black (pixel value 0).
            for channel in 0..<channels {
                (output + channel * plane).update(repeating: tables[channel * 256], count: plane)
            }
        }
        let order = channelOrder
        CropAndScaleResampler(geometry).run(on: image, threads: threads) { y, row in
            let base = (geometry.top + y) * width + geometry.left
            let pixels = row.baseAddress!
            switch order {
            case .rgb, .bgr:
                // Tensor channel c reads colour c (RGB) or 2 - c (BGR).
                let (c0, c2) = order == .rgb ? (0, 2) : (2, 0)
                let (out0, out1, out2) = (output + base, output + plane + base, output + 2 * plane + base)
                let (t0, t1, t2) = (tables, tables + 256, tables + 512)
                for x in 0..<geometry.cropWidth {
                    let p = pixels + 3 * x
                    out0[x] = t0[Int(p[c0])]
                    out1[x] = t1[Int(p[1])]
                    out2[x] = t2[Int(p[c2])]
                }
            case .gray:
                for x in 0..<geometry.cropWidth {
                    let p = pixels + 3 * x
                    output[base + x] = tables[Int(Self.luminance(p[0], p[1], p[2]))]
                }
            }
        }
    }
}
