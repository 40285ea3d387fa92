import Foundation

/// Work started on a thread of its own, whose result is waited for when it is needed.
///
/// A thread, not a dispatch queue: the queues' threads may all be busy with a parallel map (a
/// scan's), and the work would then wait for it to end instead of running beside it.
public final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Value?
    private let lock = NSLock()

    /// Starts `work` at once.
    public init(_ work: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            let value = work()
            lock.withLock { result = value }
            done.signal()
        }
        // (Parsing nests deep: the main thread's stack size, not a secondary thread's 512 KB.)
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The result, once the work is done (waiting for it).
    public var value: Value {
        done.wait()
        // (Signalled again: the next reader waits no more.)
        done.signal()
        return lock.withLock { result! }
    }
}
