import Foundation

// Capture lists, parameter labels and members the type gets from elsewhere in the file, run
// before and after the rewrite with a named binding: a capture (`[count = self.count]`,
// `[weak listener]`) is a local of its closure, evaluated where the closure is written; an
// argument label is no declaration; property-wrapper projections and storage, tuple-declared
// properties, and members of a superclass or protocol extension in the same file are members.
@propertyWrapper struct Clamped {
    var wrappedValue: Int
    var projectedValue: String { "clamped \(wrappedValue)" }
    init(wrappedValue: Int) { self.wrappedValue = min(wrappedValue, 10) }
}

protocol Logging: AnyObject { var lines: [String] { get set } }
extension Logging {
    func log(_ line: String) { lines.append(line) }
}

class Screen {
    var lines: [String] = []
    func describe() -> String { "screen" }
}

final class Listener {
    let id: Int
    init(id: Int) { self.id = id }
    func ping() -> String { "ping \(id)" }
}

final class Counter: Screen, Logging {
    var count = 1
    var listener: Listener? = Listener(id: 7)
    @Clamped var level = 30
    let (low, high) = (2, 9)

    func run(_ body: @escaping () -> Void) { body() }

    func start(count other: Int) {
        run { [weak self] in
            guard let this = self else { return }
            let report = { [count = this.count] in this.log("captured \(count)") }
            let weakly = { [weak listener = this.listener] in this.log(listener?.ping() ?? "gone") }
            let strongly = { [count = this.count, unowned listener = this.listener!] in this.log("\(count) \(listener.ping())") }
            let both = { [weak self, count = this.count] in self?.log("weak self, captured \(count)") }
            this.count += 10
            report(); weakly(); strongly(); both()
            func helper(count c: Int, _ d: Int) -> Int { c + d + this.count }
            this.log("helper \(helper(count: 100, 1000)) other \(other)")
            this.log("\(this.level) \(this.$level) \(this._level.wrappedValue) \(this.low) \(this.high) \(this.describe())")
        }
    }

    func again() {
        run { [weak self] in
            guard let this = self else { return }
            let report = { [count = this.count] in this.log("again, captured \(count)") }
            this.count = 100
            report()
        }
    }
}

let counter = Counter()
counter.start(count: 5)
counter.again()
counter.lines.forEach { print($0) }
