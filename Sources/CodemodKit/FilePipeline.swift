import Foundation
import SwiftTree
import Workspace

/// A file on its way through the pipeline: the path it was given by, and its metadata, taken once
/// before it was read (so a change while reading shows as a change).
public struct PipelineFile: @unchecked Sendable {
    public let path: String
    /// `stat` of the path, or nil when it could not be taken (the read then says why).
    public let status: stat?

    /// A stamp of the metadata (size, times, inode, device), when there is one.
    public var stamp: FileStamp? { status.map(FileStamp.init) }
}

/// What the pipeline hands its files to: `run` (rewrites), the lock-down scanner (uses and allow
/// comments) and the tracker (which counts what the scanner finds) are consumers.
///
/// For each file the pipeline asks, in order: `reuse(_:)` (an answer from the metadata alone, say
/// a cache hit), then reads the bytes and asks `reuse(_:bytes:)` (an answer from the bytes alone),
/// then `needsTree(_:)` (the prefilter); a file that needs no tree is answered by
/// `unparsed(_:bytes:)` without parsing, otherwise the file is decoded, parsed once and answered by
/// `parsed(_:tree:parser:)`. Whatever cannot be read is answered by `unreadable(_:error:)`.
public protocol FileConsumer: Sendable {
    associatedtype Output

    /// An answer from the file's metadata alone, or nil to read it. Only asked for a regular file
    /// within the size limit.
    func reuse(_ file: PipelineFile) -> Output?
    /// An answer from the file's bytes alone (before decoding), or nil to go on.
    func reuse(_ file: PipelineFile, bytes: [UInt8]) -> Output?
    /// Whether the bytes may hold something for this consumer. When false, the file is not parsed.
    func needsTree(_ bytes: [UInt8]) -> Bool
    /// The answer for a UTF-8 file that was not parsed because it needs no tree.
    func unparsed(_ file: PipelineFile, bytes: [UInt8]) -> Output
    /// The answer for a parsed file.
    func parsed(_ file: PipelineFile, tree: SyntaxTree, parser: Parser) -> Output
    /// The answer for a file that could not be read, is not a regular file, is over the size limit
    /// (`error.isSkip`) or is not UTF-8.
    func unreadable(_ file: PipelineFile, error: SourceFileError) -> Output
}

extension FileConsumer {
    public func reuse(_ file: PipelineFile) -> Output? { nil }
    public func reuse(_ file: PipelineFile, bytes: [UInt8]) -> Output? { nil }
}

/// One way from paths to answers for every command: read (one byte reader: regular files only,
/// size limit) → prefilter by what the consumer needs → decode and parse once → hand the tree to
/// the consumer; in parallel on `jobs` threads, one parser per thread.
public struct FilePipeline: Sendable {
    public var reader: SourceFileReader
    public var jobs: Int

    public init(maxFileSize: Int = SourceFileReader.defaultMaxFileSize, jobs: Int? = nil) {
        reader = SourceFileReader(maxFileSize: maxFileSize)
        self.jobs = max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The consumer's answers for the files, in the order of `files`.
    /// - Parameter progress: called from the worker threads with (files done, files in all).
    public func run<Consumer: FileConsumer>(_ files: [String], through consumer: Consumer,
                                            progress: (@Sendable (Int, Int) -> Void)? = nil) -> [Consumer.Output] {
        ParallelMap.map(files, jobs: jobs, worker: { Parser() }, progress: progress) { parser, path in
            process(path, through: consumer, parser: parser)
        }
    }

    /// One file's answer.
    public func process<Consumer: FileConsumer>(_ path: String, through consumer: Consumer, parser: Parser) -> Consumer.Output {
        var info = stat()
        let file = PipelineFile(path: path, status: stat(path, &info) == 0 ? info : nil)
        // What is not a regular file, or is too big, is never opened (nor answered from a cache).
        if let status = file.status {
            if let error = reader.problem(with: status, path: path) { return consumer.unreadable(file, error: error) }
            if let answer = consumer.reuse(file) { return answer }
        }
        let bytes: [UInt8]
        do {
            bytes = try reader.bytes(ofFile: path, status: file.status)
        } catch let error as SourceFileError {
            return consumer.unreadable(file, error: error)
        } catch {
            return consumer.unreadable(file, error: .unreadable(path: path, reason: "\(error)"))
        }
        if let answer = consumer.reuse(file, bytes: bytes) { return answer }
        let source: SourceText
        do {
            // Not parsed, but a file that is not UTF-8 is still said.
            guard consumer.needsTree(bytes) else {
                if SourceText.isValidUTF8(bytes) { return consumer.unparsed(file, bytes: bytes) }
                _ = try SourceText(utf8: bytes)  // throws, naming where the first bad byte is
                return consumer.unparsed(file, bytes: bytes)
            }
            source = try SourceText(utf8: bytes)
        } catch let error as SourceText.DecodingError {
            return consumer.unreadable(file, error: .notUTF8(path: path, detail: error.description))
        } catch {
            return consumer.unreadable(file, error: .notUTF8(path: path, detail: "\(error)"))
        }
        return consumer.parsed(file, tree: parser.parse(source), parser: parser)
    }
}
