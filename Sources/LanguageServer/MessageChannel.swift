import Foundation

/// JSON-RPC messages framed as the Language Server Protocol frames them: header lines (one of
/// them `Content-Length`) ended by a blank line, then that many bytes of JSON.
///
/// A thread reads the input as it arrives, whatever the server is doing, so messages sent while
/// it was busy are queued (at most `maxQueued` bytes of them; then the client waits), and each byte
/// is looked at once, so junk costs what it weighs. What cannot be read is skipped and said, and
/// the next message is read:
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
    /// Messages read and not yet taken, in bytes, beyond which the reading thread waits.
    static let maxQueued = 4 * maxMessageSize

    private let input: FileHandle
    private let output: FileHandle
    private let writeLock = NSLock()
    /// Guards and signals what follows, shared with the reading thread.
    private let condition = NSCondition()
    private var queue: [(incoming: Incoming, size: Int)] = []
    private var queuedBytes = 0
    private var started = false
    /// Whether the reading thread is waiting for input with no part of a message in hand.
    private var readerIdle = true
    /// Whether the input ended (the last thing queued says how).
    private var ended = false

    public init(input: FileHandle = .standardInput, output: FileHandle = .standardOutput) {
        self.input = input
        self.output = output
    }

    /// Blocks until a whole message is read, something was skipped, or the input ends.
    public func read() -> Incoming {
        condition.lock()
        defer { condition.unlock() }
        startReading()
        while queue.isEmpty { condition.wait() }
        let (incoming, size) = queue.removeFirst()
        queuedBytes -= size
        condition.broadcast()
        return incoming
    }

    /// Whether a message is waiting to be read: queued, or being read (bytes of one have arrived;
    /// waited for, up to 1 s). Lets the server leave work that a message may make useless
    /// (checking a text another edit replaces) until nothing is waiting.
    public func hasMessageWaiting() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        startReading()
        let deadline = Date().addingTimeInterval(1)
        while queue.isEmpty, !ended, !readerIdle {
            if !condition.wait(until: deadline) { break }
        }
        return !queue.isEmpty
    }

    /// Starts the reading thread, once (the lock is held).
    private func startReading() {
        guard !started else { return }
        started = true
        let reader = FrameReader(descriptor: input.fileDescriptor, waiting: { [unowned self] partial in
            condition.lock()
            readerIdle = !partial
            condition.broadcast()
            condition.unlock()
        }, received: { [unowned self] in
            condition.lock()
            readerIdle = false
            condition.broadcast()
            condition.unlock()
        })
        // It lives as long as the process (the input's end ends it).
        let thread = Thread { [self] in
            while true {
                let (incoming, size) = reader.read()
                condition.lock()
                while queuedBytes > Self.maxQueued { condition.wait() }
                queue.append((incoming, size))
                queuedBytes += size
                var finished = false
                if case .end = incoming { finished = true }
                if case .failed = incoming { finished = true }
                ended = finished
                condition.broadcast()
                condition.unlock()
                if finished { return }
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
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
}

/// The framing of `MessageChannel`'s input, read from a file descriptor by one thread: what the
/// bytes hold, message by message.
private final class FrameReader {
    private let descriptor: Int32
    /// Told before blocking for input: whether part of a message is in hand.
    private let waiting: (Bool) -> Void
    /// Told when input arrived.
    private let received: () -> Void
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
    /// The size of the body `next()` read last.
    private var bodyTaken = 0

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

    init(descriptor: Int32, waiting: @escaping (Bool) -> Void, received: @escaping () -> Void) {
        self.descriptor = descriptor
        self.waiting = waiting
        self.received = received
    }

    /// Blocks until a whole message is read, something was skipped, or the input ends; with the
    /// bytes it took (a message's body), for the queue's bound.
    func read() -> (MessageChannel.Incoming, Int) {
        while true {
            bodyTaken = 0
            if let incoming = next() { return (incoming, bodyTaken) }
            if let ended = fill() { return (ended, 0) }
        }
    }

    /// Whether part of a message is in hand (bytes not yet a message, or a refused one's rest).
    private var holdsPartOfAMessage: Bool {
        head < buffer.count || bodyLength != nil || skipping > 0 || skippingLine || header.lineCount > 0
    }

    /// The next thing the buffered bytes hold, nil when more bytes are needed.
    private func next() -> MessageChannel.Incoming? {
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
                bodyTaken = length
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
                } else if buffer.count - head > MessageChannel.maxHeaderLine {
                    let start = Array(buffer[head..<(head + 80)])
                    head = scanned
                    skippingLine = true
                    header = Header()
                    return .malformed("a header line longer than \(MessageChannel.maxHeaderLine) bytes (\(Self.describe(start))…): skipped")
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
            if line.count > MessageChannel.maxHeaderLine {
                header = Header()
                return .malformed("a header line longer than \(MessageChannel.maxHeaderLine) bytes (\(Self.describe(line.prefix(80)))…): skipped")
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
            case let .value(length) where length <= MessageChannel.maxMessageSize:
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
        // Digits alone (blanks may follow): `0x10` or `1e1` is no size, not 0 or 1.
        let rest = value.dropFirst(digits.count).allSatisfy { $0 == 0x20 || $0 == 0x09 }
        guard !digits.isEmpty, rest, digits.count <= 18, let length = Int(String(decoding: digits, as: UTF8.self)) else {
            header.length = .unreadable(Self.describe(value.prefix(40)))
            return
        }
        // Two sizes in one header: which one frames the body cannot be told, and the wrong one
        // would swallow the next message.
        if case let .value(earlier) = header.length, earlier != length {
            header.length = .unreadable("two Content-Length headers, \(earlier) and \(length)")
            return
        }
        if case .unreadable = header.length, header.lineCount > 1 { return }
        header.length = .value(length)
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
    private func fill() -> MessageChannel.Incoming? {
        waiting(holdsPartOfAMessage)
        // Consumed bytes are dropped once they are most of the buffer: each byte moves at most
        // once more.
        if head == buffer.count || (head > 65_536 && head * 2 > buffer.count) {
            buffer.removeSubrange(..<head)
            scanned -= head
            head = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer += chunk[..<count]
                received()
                return nil
            }
            if count == 0 { return .end }
            if errno == EINTR { continue }
            return .failed(String(cString: strerror(errno)))
        }
    }

    /// Bytes as text for a log line (control characters shown as `?`).
    private static func describe(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes.map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
    }
}

/// `read(2)` (the reader's own `read()` hides the name inside it).
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
