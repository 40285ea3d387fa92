import Foundation

/// JSON-RPC messages framed as the Language Server Protocol frames them: header lines (one of
/// them `Content-Length`) ended by a blank line, then that many bytes of JSON.
///
/// The input is read as it arrives and each byte is looked at once, so junk costs what it
/// weighs. What cannot be read is skipped and said, and the next message is read:
/// - a header line longer than `maxHeaderLine` bytes is a protocol error (the rest of the line is
///   skipped as it arrives);
/// - a message bigger than `maxMessageSize` is refused, and its bytes skipped as they arrive;
/// - a header without a `Content-Length` (or with one that is no number), or a body that is not a
///   JSON object, is malformed.
public final class MessageChannel: @unchecked Sendable {
    /// What reading the next message gave.
    public enum Incoming {
        /// A JSON object.
        case message([String: Any])
        /// A header or a body that cannot be read, skipped: why.
        case malformed(String)
        /// A message over `maxMessageSize`, refused and skipped: its size in bytes.
        case tooLarge(Int)
        /// The input ended: the client closed it.
        case end
        /// Reading the input failed: why.
        case failed(String)
    }

    /// A message bigger than this (in bytes) is refused: no editor sends a document of 64 MB.
    public static let maxMessageSize = 64 << 20
    /// A header line longer than this (in bytes) is a protocol error: LSP's two headers are short.
    public static let maxHeaderLine = 4096

    private let input: FileHandle
    private let output: FileHandle
    private let writeLock = NSLock()
    /// Bytes read and not yet consumed: from `head` on.
    private var buffer: [UInt8] = []
    private var head = 0
    /// Where the search for the end of the current header line resumes (bytes before it hold no
    /// line end).
    private var scanned = 0
    /// The header being read.
    private var header = Header()
    /// The length of the body to read next, once its header is read.
    private var bodyLength: Int?
    /// Bytes of a refused message still to skip.
    private var skipping = 0
    /// Whether the rest of an over-long header line is being skipped.
    private var skippingLine = false
    /// What was read ahead by `hasMessageWaiting()`, returned first.
    private var readAhead: [Incoming] = []

    /// What the header lines read so far said.
    private struct Header {
        /// The last `Content-Length` (a line may hold one after junk: the body of a frame without
        /// one is left before the next header, which must still be read).
        var length: Length = .none
        /// The first bytes of the header, to say what was skipped.
        var start: [UInt8] = []
        var lineCount = 0

        enum Length {
            case none
            case value(Int)
            /// A `Content-Length` that is no number this server can read: its text.
            case unreadable(String)
        }
    }

    public init(input: FileHandle = .standardInput, output: FileHandle = .standardOutput) {
        self.input = input
        self.output = output
    }

    /// Blocks until a whole message is read, something was skipped, or the input ends.
    public func read() -> Incoming {
        if !readAhead.isEmpty { return readAhead.removeFirst() }
        while true {
            if let incoming = next() { return incoming }
            if let ended = fill() { return ended }
        }
    }

    /// Whether a message is waiting: one already read, or bytes ready on the input. When part of
    /// a message is here and nothing more is ready, waits up to `seconds` for the rest (the
    /// client is still writing it). Never blocks longer than that.
    public func hasMessageWaiting(seconds: Double = 0.2) -> Bool {
        if !readAhead.isEmpty { return true }
        if let incoming = next() {
            readAhead.append(incoming)
            return true
        }
        if isReady(waiting: 0) { return true }
        let partial = head < buffer.count || bodyLength != nil || skipping > 0 || skippingLine || header.lineCount > 0
        return partial && isReady(waiting: Int32(seconds * 1000))
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

    // MARK: - Reading

    /// The next thing the buffered bytes hold, nil when more bytes are needed.
    private func next() -> Incoming? {
        while true {
            if skipping > 0 {
                let count = min(skipping, buffer.count - head)
                head += count
                skipping -= count
                if skipping > 0 { return nil }
            }
            if let length = bodyLength {
                guard buffer.count - head >= length else { return nil }
                let body = Data(buffer[head..<(head + length)])
                head += length
                scanned = head
                bodyLength = nil
                guard let object = try? JSONSerialization.jsonObject(with: body), let message = object as? [String: Any] else {
                    return .malformed("a body that is not a JSON object (\(length) bytes)")
                }
                return .message(message)
            }
            let from = max(scanned, head)
            guard let end = lineEnd(from: from) else {
                // A CR at the end may start the line's end: looked at again with the next bytes.
                scanned = max(head, buffer.count - 1)
                if skippingLine {
                    head = scanned
                } else if buffer.count - head > Self.maxHeaderLine {
                    let start = Array(buffer[head..<(head + 80)])
                    head = scanned
                    skippingLine = true
                    header = Header()
                    return .malformed("a header line longer than \(Self.maxHeaderLine) bytes (\(Self.describe(start))…): skipped")
                }
                return nil
            }
            let line = buffer[head..<end]
            head = end + 2
            scanned = head
            if skippingLine {
                skippingLine = false
                continue
            }
            if line.count > Self.maxHeaderLine {
                header = Header()
                return .malformed("a header line longer than \(Self.maxHeaderLine) bytes (\(Self.describe(line.prefix(80)))…): skipped")
            }
            if !line.isEmpty {
                note(headerLine: line)
                continue
            }
            // A blank line: the header's end (blank lines before any header are nothing).
            guard header.lineCount > 0 else { continue }
            let done = header
            header = Header()
            switch done.length {
            case let .value(length) where length <= Self.maxMessageSize:
                bodyLength = length
            case let .value(length):
                skipping = length
                return .tooLarge(length)
            case let .unreadable(text):
                return .malformed("a Content-Length that is not a size: '\(text)'")
            case .none:
                return .malformed("a header without a Content-Length: \(Self.describe(done.start))")
            }
        }
    }

    /// Notes what a header line says.
    private func note(headerLine line: ArraySlice<UInt8>) {
        header.lineCount += 1
        if header.start.count < 200 {
            if !header.start.isEmpty { header.start += Array(" | ".utf8) }
            header.start += line.prefix(200 - header.start.count)
        }
        // The last `Content-Length:` of the line, wherever it starts, ASCII letters in any case
        // (found in the bytes: `İ` lowercases to two characters, which would move positions).
        let key = Array("content-length:".utf8)
        guard line.count >= key.count,
              let at = stride(from: line.endIndex - key.count, through: line.startIndex, by: -1).first(where: { start in
                  key.indices.allSatisfy { line[start + $0] | 0x20 == key[$0] | 0x20 }
              }) else { return }
        let value = line[(at + key.count)...].drop { $0 == 0x20 || $0 == 0x09 }
        let digits = value.prefix { (0x30...0x39).contains($0) }
        if !digits.isEmpty, digits.count <= 18, let length = Int(String(decoding: digits, as: UTF8.self)) {
            header.length = .value(length)
        } else {
            header.length = .unreadable(Self.describe(value.prefix(40)))
        }
    }

    /// The index of the CR of the first CR LF at or after an index, if the buffer holds one.
    private func lineEnd(from start: Int) -> Int? {
        buffer.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return nil }
            // The LF is at least one byte on (memchr: junk of many megabytes is read at memory speed).
            var index = start + 1
            while index < bytes.count {
                guard let found = memchr(base + index, 0x0A, bytes.count - index) else { return nil }
                let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if bytes[at - 1] == 0x0D { return at - 1 }
                index = at + 1
            }
            return nil
        }
    }

    /// Reads what the input has (blocking until it has something); nil when bytes were added,
    /// else why the input ended.
    private func fill() -> Incoming? {
        // Consumed bytes are dropped once they are most of the buffer: each byte moves at most
        // once more.
        if head == buffer.count || (head > 65_536 && head * 2 > buffer.count) {
            buffer.removeSubrange(..<head)
            scanned -= head
            head = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { readBytes(input.fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer += chunk[..<count]
                return nil
            }
            if count == 0 { return .end }
            if errno == EINTR { continue }
            return .failed(String(cString: strerror(errno)))
        }
    }

    /// Whether the input has bytes (or its end) ready within some milliseconds.
    private func isReady(waiting milliseconds: Int32) -> Bool {
        var ready = pollfd(fd: input.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, milliseconds) > 0
    }

    /// Bytes as text for a log line (control characters shown as `?`).
    private static func describe(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes.map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
    }
}

/// `read(2)` (the channel's own `read()` hides the name inside it).
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
