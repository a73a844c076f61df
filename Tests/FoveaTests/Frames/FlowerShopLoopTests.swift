import XCTest
import FoveaFrames
@_spi(Internals) @testable import Fovea

/// The README's FlowerShop loop, as written there (reading a file instead of
/// standard input): register, gate on stability, classify and read barcodes.
final class FlowerShopLoopTests: XCTestCase {
    func testTheReadmeLoopClassifiesOnlyTheStillFrames() throws {
        let clip = try TestData.temporaryDirectory().appendingPathComponent("clip.y4m")
        try StreamCommandTests.pannedThenStillClip().write(to: clip)
        var classified: [(frame: Int, label: String, codes: [String?])] = []
        var frameNumber = 0

        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx")).describing { $0.classLabels = try .imageNet1k }
        let classify = try ClassificationRequest(model: model)
        let barcodes = DetectBarcodesRequest()
        let sequence = SequenceRequestHandler()
        let stability = try SceneStabilityDetector()          // 15 translations, 20 px
        let video = try Y4MReader(path: clip.path)            // "-": ffmpeg -f yuv4mpegpipe - | this program
        var previous: RGBImage?
        while let frame = try video.nextFrame() {
            frameNumber += 1
            defer { previous = frame }
            guard let previous else { continue }
            let registration = TranslationalImageRegistrationRequest(targetedImage: frame)
            try sequence.performAndWait([registration], on: previous)
            if let shift = registration.results?.first { stability.add(shift) }
            guard stability.isStable else { continue }
            try ImageRequestHandler(image: frame).performAndWait([classify, barcodes])
            classified.append((frameNumber, classify.results?.first?.identifier ?? "", barcodes.results?.map(\.payloadStringValue) ?? []))
        }

        // Frames 2...12 moved 12 px each; from frame 26 the last 15 translations hold at most one.
        XCTAssertEqual(classified.map(\.frame), Array(26...32))
        XCTAssertTrue(classified.allSatisfy { $0.codes.isEmpty })
        // Sensor noise differs frame to frame; a 224×224 window of the photo is mostly the panda.
        let pandas = classified.filter { $0.label.hasPrefix("lesser panda") }.count
        XCTAssertGreaterThanOrEqual(3 * pandas, 2 * classified.count, "\(classified)")
    }
}
