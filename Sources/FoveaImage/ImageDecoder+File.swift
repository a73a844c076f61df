import Foundation

extension ImageDecoder {
    /// The bytes of the image file at `path`, for callers that decode and also
    /// read metadata (EXIF): `.io` if the file is missing, a directory or unreadable.
    public static func data(contentsOf path: String) throws -> Data {
        try readFile(path)
    }
}
