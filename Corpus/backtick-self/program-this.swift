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
            guard let `self` = self else { return }
            self.note("reload \(self.title) with \(self.items.count) items")
            defer { self.note("reload done") }
            let counts = self.items.map(\.count)
            self.note("counts \(counts)")
            func describe() -> String { "\(type(of: self)) \(self.title)" }
            self.note(describe())
            self.perform {
                self.note("nested strong use: \(self.items.first ?? "-")")
            }
            self.perform { [self] in
                self.note("explicit capture: \(self.items.last ?? "-")")
            }
            self.perform { [weak self] in
                self?.note("weak again: \(self?.title ?? "nil")")
            }
            struct Local {
                let value: Int
                func doubled() -> Local { Local(value: self.value * 2) }
            }
            self.note("local type \(Local(value: 21).doubled().value)")
            note("implicit member call, \(items.count) items")
        }
    }

    func walk() {
        perform { [weak self] in
            while let `self` = self,
                  let position = self.cursor,
                  position < self.items.count {
                self.note("at \(position): \(self.items[position])")
                self.cursor = position + 1 < self.items.count ? position + 1 : nil
            }
        }
    }

    func check(flag: Bool) {
        perform { [weak self] in
            if let `self` = self, flag {
                self.note("flag on for \(self.title)")
            } else {
                print("flag off, self is \(self == nil ? "gone" : "here")")
            }
            guard let `self` = self,
                  !self.items.isEmpty
            else {
                return
            }
            self.note("still \(self.items.joined(separator: ","))")
        }
    }

    func deferred() {
        later { [weak self] in
            if let `self` = self {
                self.note("deferred ran")
            } else {
                print("deferred: self is gone")
            }
        }
    }

    func unused() {
        perform { [weak self] in
            guard let `self` = self else { return }
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
