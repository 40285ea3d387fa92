import Dispatch
import Foundation

/// Maps items on several threads, keeping the input order. Each thread makes its own worker
/// state once (a parser, say) and hands it to every item it processes.
public enum ParallelMap {
    /// - Parameters:
    ///   - jobs: how many threads at most.
    ///   - makeWorker: called once per thread, on that thread.
    ///   - progress: called from the worker threads with (items done, items in all).
    public static func map<Item, Worker, Output>(_ items: [Item], jobs: Int, worker makeWorker: () -> Worker,
                                                 progress: (@Sendable (Int, Int) -> Void)? = nil,
                                                 _ transform: (Worker, Item) -> Output) -> [Output] {
        guard !items.isEmpty else { return [] }
        let results = UnsafeMutableBufferPointer<Output?>.allocate(capacity: items.count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        let next = Counter()
        let done = Counter()
        let workers = min(max(1, jobs), items.count)
        withoutActuallyEscaping(makeWorker) { makeWorker in
            withoutActuallyEscaping(transform) { transform in
                DispatchQueue.concurrentPerform(iterations: workers) { _ in
                    let worker = makeWorker()
                    while true {
                        let index = next.increment()
                        guard index < items.count else { break }
                        results[index] = transform(worker, items[index])
                        if let progress { progress(done.increment() + 1, items.count) }
                    }
                }
            }
        }
        return results.map { $0! }
    }
}

/// A thread-safe counter handing out 0, 1, 2, …
final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()

    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value - 1
    }
}
