import Foundation
import XCTest
import FoveaCore
@testable import FoveaImage

final class ResamplingTests: XCTestCase {
    /// decode → shorter side 256 (bilinear) → centre crop 224 reproduces the
    /// `.224.ppm` crops that PIL made the same way.
    func testPipelineReproducesPILCrops() throws {
        let photos = ["red_panda.jpg", "chelsea_cat.png", "coffee.png", "rocket.jpg"]
        for name in photos {
            // PIL made the crops without colour matching (rocket.jpg is Adobe RGB).
            let image = try ImageDecoder.decode(contentsOf: photoPath(name), colorMatching: .off)
            let crop = try image.resizedShorterSide(to: 256).centerCropped(width: 224, height: 224)
            let stem = name.split(separator: ".")[0]
            let reference = try ImageDecoder.decode(contentsOf: photoPath("\(stem).224.ppm"))
            XCTAssertEqual(crop.width, 224)
            XCTAssertEqual(crop.height, 224)
            let difference = pixelDifference(crop, reference)
            print("\(name): max |diff| \(difference.max), mean |diff| \(difference.mean)")
            XCTAssertEqual(difference.max, 0, name)
            XCTAssertEqual(crop, reference, name)
        }
    }

    func testShorterSideSizes() throws {
        // round(long * 256 / short), halves to even as Python's round.
        let cases: [(Int, Int, Int, Int)] = [
            (960, 635, 387, 256), (451, 300, 385, 256), (600, 400, 384, 256), (640, 427, 384, 256),
            (300, 451, 256, 385), (50, 50, 256, 256),
            (10, 4, 640, 256),  // 640 exactly
            (5, 2, 640, 256),
        ]
        for (w, h, expectedW, expectedH) in cases {
            let resized = try patternImage(width: w, height: h).resizedShorterSide(to: 256)
            XCTAssertEqual([resized.width, resized.height], [expectedW, expectedH], "\(w)×\(h)")
        }
        // 7 * 3 / 2 = 10.5 → 10 (even); 5 * 3 / 2 = 7.5 → 8 (even).
        XCTAssertEqual(try patternImage(width: 7, height: 2).resizedShorterSide(to: 3).width, 10)
        XCTAssertEqual(try patternImage(width: 5, height: 2).resizedShorterSide(to: 3).width, 8)
        XCTAssertEqual(RGBImage.divideRoundingHalfToEven(21, by: 2), 10)
        XCTAssertEqual(RGBImage.divideRoundingHalfToEven(23, by: 2), 12)
        XCTAssertEqual(RGBImage.divideRoundingHalfToEven(22, by: 3), 7)
        XCTAssertEqual(RGBImage.divideRoundingHalfToEven(23, by: 3), 8)
    }

    /// Values computed with Pillow 13: `Image.frombytes("RGB", (w, h), pattern).resize(size, Image.BILINEAR)`.
    func testResizeMatchesPillowOnSmallPatterns() throws {
        let source = try patternImage(width: 13, height: 7)
        let cases: [(Int, Int, String)] = [
            (5, 3, Self.pillow5x3),
            (29, 11, Self.pillow29x11),
            (4, 19, Self.pillow4x19),
        ]
        for (w, h, hex) in cases {
            let resized = try source.resized(width: w, height: h)
            let expected = bytes(hex: hex)
            XCTAssertEqual(resized.pixels, expected, "\(w)×\(h)")
        }
    }

    func testResizeToSameSizeIsIdentityAndConstantStaysConstant() throws {
        let image = try patternImage(width: 9, height: 4)
        XCTAssertEqual(try image.resized(width: 9, height: 4), image)
        let flat = try RGBImage(width: 31, height: 17, red: 10, green: 200, blue: 255)
        for (w, h) in [(7, 5), (64, 40), (31, 3), (1, 1), (100, 17)] {
            let resized = try flat.resized(width: w, height: h)
            XCTAssertEqual(resized, try RGBImage(width: w, height: h, red: 10, green: 200, blue: 255), "\(w)×\(h)")
        }
    }

    func testResizeToEmptyOrHugeSizeThrows() throws {
        let image = try patternImage(width: 4, height: 4)
        assertFoveaError(.invalidImage, messageContains: "empty") { try image.resized(width: 0, height: 3) }
        assertFoveaError(.invalidImage, messageContains: "empty") { try image.resized(width: 3, height: -1) }
        assertFoveaError(.invalidImage, messageContains: "limit") { try image.resized(width: 1 << 20, height: 1 << 20) }
        assertFoveaError(.invalidImage, messageContains: "limit") { try image.resized(width: Int.max, height: Int.max) }
        assertFoveaError(.invalidImage, messageContains: "side longer than the limit") { try image.resized(width: 1 << 19, height: 1) }
        assertFoveaError(.invalidImage) { try image.resizedShorterSide(to: 0) }
        assertFoveaError(.invalidImage) { try image.resizedShorterSide(to: Int.max) }
        let thin = try patternImage(width: 1, height: 4096)
        assertFoveaError(.invalidImage, messageContains: "limit") { try thin.resizedShorterSide(to: 1 << 16) }
    }

    func testCrop() throws {
        let image = try patternImage(width: 6, height: 5)
        let crop = try image.cropped(x: 2, y: 1, width: 3, height: 2)
        XCTAssertEqual(crop.width, 3)
        XCTAssertEqual(crop.height, 2)
        for y in 0..<2 {
            for x in 0..<3 {
                let a = try XCTUnwrap(crop.pixel(x: x, y: y))
                let b = try XCTUnwrap(image.pixel(x: x + 2, y: y + 1))
                XCTAssertEqual([a.red, a.green, a.blue], [b.red, b.green, b.blue])
            }
        }
        XCTAssertEqual(try image.cropped(x: 0, y: 0, width: 6, height: 5), image)
        XCTAssertEqual(try image.cropped(x: 5, y: 4, width: 1, height: 1).pixels.count, 3)
    }

    func testCenterCropUsesIntegerDivision() throws {
        let image = try patternImage(width: 7, height: 6)
        // left = (7 - 4) / 2 = 1, top = (6 - 3) / 2 = 1.
        XCTAssertEqual(try image.centerCropped(width: 4, height: 3), try image.cropped(x: 1, y: 1, width: 4, height: 3))
        XCTAssertEqual(try image.centerCropped(width: 7, height: 6), image)
    }

    func testCropOutOfBoundsThrows() throws {
        let image = try patternImage(width: 6, height: 5)
        let bad: [(Int, Int, Int, Int)] = [
            (-1, 0, 2, 2), (0, -1, 2, 2), (5, 0, 2, 1), (0, 4, 1, 2), (0, 0, 7, 5), (0, 0, 6, 6),
            (6, 0, 1, 1), (0, 0, 0, 1), (0, 0, 1, 0), (Int.max, 0, 1, 1), (1, 1, Int.max, 1), (Int.min, 0, 1, 1),
        ]
        for (x, y, w, h) in bad {
            assertFoveaError(.invalidImage) { try image.cropped(x: x, y: y, width: w, height: h) }
        }
        assertFoveaError(.invalidImage, messageContains: "larger") { try image.centerCropped(width: 7, height: 2) }
        assertFoveaError(.invalidImage, messageContains: "larger") { try image.centerCropped(width: 2, height: 6) }
        assertFoveaError(.invalidImage, messageContains: "empty") { try image.centerCropped(width: 0, height: 2) }
    }

    // Pillow 13's bytes for patternImage(width: 13, height: 7) resized with
    // Image.BILINEAR: shrinking both ways, enlarging both ways, and one of each.
    static let pillow5x3 = "0a01fa1b03ee2d05e13f07d45009c81003fa210aee3312e1451ad45621c81605fa2711ee391fe14b2dd45c39c8"
    static let pillow29x11 = "0000ff0100fe0400fc0700fa0b00f70e00f51100f31400f11700ee1a00ec1d00ea2100e82400e52700e32a00e12d00df3000dd3300da3700d83a00d63d00d44000d14300cf4600cd4900cb4d00c85000c65300c45400c30100ff0200fe0500fc0800fa0c01f70f01f51201f31501f11801ee1b02ec1e02ea2202e82502e52803e32b03e12e03df3103dd3403da3804d83b04d63e04d44104d14405cf4705cd4a05cb4e05c85105c65405c45505c30300ff0400fe0701fc0a01fa0e02f71102f51402f31703f11a03ee1d04ec2004ea2405e82705e52a06e32d07e13007df3308dd3608da3a09d83d09d6400ad4430ad1460bcf490bcd4c0bcb500cc8530cc6560dc4570dc30500ff0600fe0901fc0c02fa1003f71303f51604f31905f11c06ee1f07ec2207ea2608e82909e52c0ae32f0ae1320bdf350cdd380dda3c0ed83f0ed6420fd44510d14811cf4b11cd4e12cb5213c85514c65815c45915c30700ff0800fe0b01fc0e02fa1204f71505f51806f31b07f11e08ee2109ec240aea280be82b0ce52e0de3310ee1340fdf3711dd3a12da3e13d84113d64414d44715d14a17cf4d18cd5019cb541ac8571bc65a1cc45b1cc30900ff0a01fe0d02fc1003fa1405f71706f51a07f31d09f1200aee230bec260dea2a0ee82d0fe53011e33312e13613df3915dd3c16da4017d84319d6461ad4491bd14c1dcf4f1ecd521fcb5621c85922c65c23c45d24c30b00ff0c01fe0f02fc1204fa1606f71907f51c09f31f0af1220cee250eec2810ea2c11e82f12e53214e33516e13817df3b19dd3e1ada421cd8451ed64820d44b21d14e23cf5124cd5426cb5828c85b2ac65e2bc45f2cc30d00ff0e01fe1102fc1404fa1807f71b09f51e0bf3210cf1240eee2710ec2a12ea2e14e83116e53418e3371ae13a1cdf3d1edd401fda4421d84723d64a25d44d27d15029cf532bcd562dcb5a2fc85d31c66032c46133c30f00ff1001fe1303fc1605fa1a08f71d0af5200cf3230ef12611ee2913ec2c15ea3017e83319e5361be3391de13c1fdf3f21dd4224da4626d84928d64c2ad44f2dd1522fcf5531cd5833cb5c36c85f38c6623ac4633bc31100ff1201fe1504fc1806fa1c09f71f0bf5220df32510f12813ee2b15ec2e17ea321ae8351de5381fe33b21e13e24df4126dd4429da482bd84b2dd64e30d45133d15435cf5737cd5a3acb5e3dc8613fc66442c46543c31200ff1301fe1604fc1906fa1d09f7200cf5230ef32611f12914ee2c17ec2f19ea331ce8361fe53921e33c24e13f27df4229dd452cda492fd84c31d64f34d45237d1553acf583ccd5b3fcb5f42c86244c66547c46648c3"
    static let pillow4x19 = "0a00f81f00e93500d94a00ca0a00f81f00e93500d94a01ca0b00f82002e93603d94b05ca0c01f82103e93706d94c09ca0d01f82205e93809d94d0dca0f02f82407e93a0cd94f10ca1003f82508e93b0ed95014ca1103f8260ae93c11d95118ca1204f8270ce93d14d9521cca1304f8280de93e17d95320ca1405f8290fe93f1ad95424ca1505f82a11e9401cd95527ca1606f82b12e9411fd9562bca1706f82c14e94222d9572fca1907f82e15e94425d95933ca1a07f82f17e94528d95a37ca1b08f83018e9462bd95b3bca1c09f8311ae9472ed95c3eca1c09f8311ae9472ed95c3fca"
}
