import ArgumentParser
@_spi(Internals) import Fovea
import Foundation
import FoveaFrames

/// `--roi x,y,w,h`: a normalized region of interest, origin at the lower left (Vision's).
struct RegionOfInterestOption: ExpressibleByArgument {
    var rect: CGRect

    init?(argument: String) {
        let values = argument.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == 4, let x = values[0], let y = values[1], let w = values[2], let h = values[3],
              [x, y, w, h].allSatisfy(\.isFinite), w > 0, h > 0, x >= 0, y >= 0, x + w <= 1 + 1e-6, y + h <= 1 + 1e-6 else {
            return nil
        }
        rect = CGRect(x: x, y: y, width: w, height: h)
    }

    static let help = "A region of interest x,y,w,h in 0...1 of the upright image's width and height, origin at the lower LEFT (Vision's): 0,0.5,0.5,0.5 is the top-left quarter. Classification (and --barcodes) look only inside it; --crop applies inside it."
}

/// Prints the barcodes found with an image's classes (`classify --barcodes`).
func printBarcodes(_ codes: [BarcodeObservation]) {
    for code in codes {
        let box = code.boundingBox
        print("  barcode \(code.symbology) \((code.payloadStringValue ?? "(binary)").terminalSafe)  at "
              + String(format: "x %.3f y %.3f w %.3f h %.3f", box.minX, box.minY, box.width, box.height))
    }
}
