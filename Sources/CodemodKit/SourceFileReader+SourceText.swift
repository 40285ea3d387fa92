import Foundation
import SwiftTree
import Workspace

extension SourceFileReader {
    /// A file's text, decoded as UTF-8.
    /// - Throws: `SourceFileError` naming the path and what is wrong.
    public func source(ofFile path: String) throws -> SourceText {
        let data = try bytes(ofFile: path)
        do {
            return try SourceText(utf8: data)
        } catch let error as SourceText.DecodingError {
            throw SourceFileError.notUTF8(path: path, detail: error.description)
        }
    }

}

extension SourceText {
    /// Reads a file as UTF-8 Swift source, with the default size limit (see `SourceFileReader`).
    /// - Throws: `SourceFileError` naming the path and what is wrong.
    public init(contentsOfFile path: String) throws {
        self = try SourceFileReader().source(ofFile: path)
    }
}
