import Foundation

/// JSON-RPC messages framed as the Language Server Protocol frames them: a `Content-Length`
/// header, a blank line, then that many bytes of JSON.
public final class MessageChannel: @unchecked Sendable {
    /// What reading the next message gave.
    public enum Incoming {
        /// A JSON object.
        case message([String: Any])
        /// A frame whose body is not a JSON object, or a header without a length: skipped.
        case malformed(String)
        /// The input ended (the client is gone).
        case end
    }

    private let input: FileHandle
    private let output: FileHandle
    private var buffer: [UInt8] = []
    private let writeLock = NSLock()
    /// A frame bigger than this is refused (and the channel closed): no client sends 64 MB.
    static let maxFrame = 64 << 20

    public init(input: FileHandle = .standardInput, output: FileHandle = .standardOutput) {
        self.input = input
        self.output = output
    }

    /// Blocks until a whole message (or the end of the input) is read.
    public func read() -> Incoming {
        while true {
            if let separator = find([13, 10, 13, 10]) {
                let header = String(decoding: buffer[..<separator], as: UTF8.self)
                // The last `Content-Length:` of the header block, wherever it starts: after a frame
                // without one, its body is left before the next header, which must still be read.
                var length: Int?
                // Found in the bytes, ASCII letters in any case (not in lowercased text: `İ`
                // lowercases to two characters, which would move positions).
                let key = Array("content-length:".utf8)
                let bytes = Array(buffer[..<separator])
                if let at = stride(from: bytes.count - key.count, through: 0, by: -1).first(where: { start in
                    key.indices.allSatisfy { bytes[start + $0] | 0x20 == key[$0] | 0x20 }
                }) {
                    let digits = bytes[(at + key.count)...].drop { $0 == 0x20 || $0 == 0x09 }.prefix { (0x30...0x39).contains($0) }
                    length = digits.count <= 12 ? Int(String(decoding: digits, as: UTF8.self)) : Self.maxFrame + 1
                }
                guard let length, length >= 0, length <= Self.maxFrame else {
                    buffer.removeSubrange(..<(separator + 4))
                    if length.map({ $0 > Self.maxFrame }) == true { return .end }
                    return .malformed("a header without a valid Content-Length: \(header.prefix(200))")
                }
                let start = separator + 4
                while buffer.count < start + length {
                    guard fill() else { return .end }
                }
                let body = Data(buffer[start..<(start + length)])
                buffer.removeSubrange(..<(start + length))
                guard let object = try? JSONSerialization.jsonObject(with: body), let message = object as? [String: Any] else {
                    return .malformed("a body that is not a JSON object (\(length) bytes)")
                }
                return .message(message)
            }
            guard fill() else { return .end }
        }
    }

    /// Whether the output is gone (the client closed it): nothing more can be said.
    public private(set) var isClosed = false

    /// Sends a message (nothing once the output is closed).
    public func send(_ message: [String: Any]) {
        guard let body = try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        writeLock.lock()
        defer { writeLock.unlock() }
        guard !isClosed else { return }
        do {
            try output.write(contentsOf: Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
        } catch {
            isClosed = true
        }
    }

    private func fill() -> Bool {
        let data = input.availableData
        guard !data.isEmpty else { return false }
        buffer += data
        return true
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for index in 0...(buffer.count - needle.count) where buffer[index] == needle[0] {
            if buffer[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }
}
