import Foundation

// A Foundation-only program full of backtick self rebindings. The test suite compiles and runs it
// before and after the rewrite (in both styles) and compares what it prints.

final class Feed {
    var title = "feed"
    var items: [String] = ["a", "b", "c"]
    var cursor: Int? = 0
    var log: [String] = []
    private var pending: [() -> Void] = []

    func perform(_ work: @escaping () -> Void) { work() }
    func later(_ work: @escaping () -> Void) { pending.append(work) }
    func drain() -> [() -> Void] { defer { pending = [] }; return pending }

    func note(_ text: String) { log.append(text) }

    func reload() {
        perform { [weak self] in
            guard let this = self else { return }
            this.note("reload \(this.title) with \(this.items.count) items")
            defer { this.note("reload done") }
            let counts = this.items.map(\.count)
            this.note("counts \(counts)")
            func describe() -> String { "\(type(of: this)) \(this.title)" }
            this.note(describe())
            this.perform {
                this.note("nested strong use: \(this.items.first ?? "-")")
            }
            this.perform { [this] in
                this.note("explicit capture: \(this.items.last ?? "-")")
            }
            this.perform { [weak self] in
                self?.note("weak again: \(self?.title ?? "nil")")
            }
            struct Local {
                let value: Int
                func doubled() -> Local { Local(value: self.value * 2) }
            }
            this.note("local type \(Local(value: 21).doubled().value)")
            this.note("implicit member call, \(this.items.count) items")
        }
    }

    func walk() {
        perform { [weak self] in
            while let this = self,
                  let position = this.cursor,
                  position < this.items.count {
                this.note("at \(position): \(this.items[position])")
                this.cursor = position + 1 < this.items.count ? position + 1 : nil
            }
        }
    }

    func check(flag: Bool) {
        perform { [weak self] in
            if let this = self, flag {
                this.note("flag on for \(this.title)")
            } else {
                print("flag off, self is \(self == nil ? "gone" : "here")")
            }
            guard let this = self,
                  !this.items.isEmpty
            else {
                return
            }
            this.note("still \(this.items.joined(separator: ","))")
        }
    }

    func deferred() {
        later { [weak self] in
            if let this = self {
                this.note("deferred ran")
            } else {
                print("deferred: self is gone")
            }
        }
    }

    func unused() {
        perform { [weak self] in
            guard let this = self else { return }
            print("only checking that self is alive: \(String(describing: Self.self))")
        }
    }
}

let feed = Feed()
feed.reload()
feed.walk()
feed.check(flag: true)
feed.check(flag: false)
feed.unused()
feed.deferred()
for work in feed.drain() { work() }
for line in feed.log { print(line) }

var temporary: Feed? = Feed()
temporary?.deferred()
temporary?.check(flag: false)
let leftovers = temporary?.drain() ?? []
temporary = nil
for work in leftovers { work() }
print("key paths: \([Feed()].map(\.title)) \(Feed.self)")
