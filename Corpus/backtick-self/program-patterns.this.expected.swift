import Foundation

// Patterns after a backtick rebinding, run before and after the rewrite with a named binding.
// The enum cases share their names with methods of the handler (`openLink`, `share`, `close`):
// a name after a leading dot stays a case. Names bound by a pattern (`case let .openLink(url)`),
// a tuple, `catch`, a closure or `inout` parameter, or a local function hide the members of the
// same name in their scope; everything else that is a member gets `this.`.
enum Action {
    case openLink(URL)
    case share(url: URL, title: String)
    case close
}

struct Failure: Error { let code: Int }

final class LinkHandler {
    var url = URL(string: "https://member.example")!
    var title = "member-title"
    var attempts = 0
    var note: String? = "member-note"
    var log: [String] = []

    func openLink(_ url: URL) { log.append("open \(url.host ?? "?")") }
    func share(url: URL, title: String) { log.append("share \(title) \(url.host ?? "?")") }
    func close() { log.append("close") }
    func summary() -> String { "member summary" }
    func validate() throws { throw Failure(code: 7) }
    func run(_ body: @escaping () -> Void) { body() }
    func perform(_ body: () -> Void, completion: () -> Void) { body(); completion() }

    func handle(_ action: Action) {
        run { [weak self] in
            guard let this = self else { return }
            // `if case` binds `url`: the method call gets `this.`, the binding does not.
            if case let .openLink(url) = action {
                this.openLink(url)
            }
            if case .share(url: let link, title: var caption) = action {
                caption += "!"
                this.share(url: link, title: caption)
            }
            switch action {
            case .openLink(let url) where url.host == "docs.example":
                this.log.append("docs \(url.host ?? "?")")
            case let .share(url, title):
                this.log.append("shared \(title) \(url.host ?? "?")")
            case .close:
                this.close()
            default:
                this.log.append("other, member title \(this.title)")
            }
            guard case .openLink = action else {
                this.log.append("not a link, member url \(this.url.host ?? "?")")
                return
            }
            // Argument labels stay; their values are the members.
            this.share(url: this.url, title: this.title)
        }
    }

    func drain(_ queue: [Action]) {
        run { [weak self] in
            guard let this = self else { return }
            for case let .openLink(url) in queue {
                this.openLink(url)
            }
            var pending = queue.makeIterator()
            while case let .share(url, title)? = pending.next() {
                this.log.append("drained \(title) \(url.host ?? "?")")
            }
            // A tuple declares both names; its value reads the members.
            let (title, url) = (this.title.uppercased(), this.url)
            this.log.append("tuple \(title) \(url.host ?? "?")")
        }
    }

    func retry() {
        run { [weak self] in
            guard let this = self else { return }
            do {
                try this.validate()
            } catch let failure as Failure {
                this.log.append("failure \(failure.code) after \(this.attempts)")
            } catch {
                this.log.append("other \(error)")
            }
            func bump(_ attempts: inout Int) {
                attempts += 10
            }
            bump(&this.attempts)
            let describe = { (url: URL, title: String) in "\(title)@\(url.host ?? "?")" }
            this.log.append(describe(this.url, this.title))
            let pairs = [(url: this.url, title: "pair")]
            pairs.forEach { (pair: (url: URL, title: String)) in
                this.log.append("pair \(pair.title) \(pair.url.host ?? "?")")
            }
            let titles = [this].map(\.title) + [this].map(\LinkHandler.title)
            this.log.append("paths \(titles)")
            this.perform({ this.attempts += 1 }, completion: { this.log.append("done after \(this.attempts)") })
        }
    }

    func report() {
        run { [weak self] in
            guard let this = self else { return }
            // The local function is called before it is declared: it hides the method.
            this.log.append(summary())
            func summary() -> String { "local summary" }
            // A local constant declared later does not hide the member before it.
            this.log.append("before \(this.title)")
            let title = "local-title"
            this.log.append("after \(title)")
            // A condition's binding is not seen by its own value, nor by the `else` branch.
            if let note = this.note, note.hasSuffix("note") {
                this.log.append("bound \(note)")
            }
            if let note = this.note?.uppercased(), note.isEmpty {
                this.log.append("empty \(note)")
            } else {
                this.log.append("else \(this.note ?? "-")")
            }
        }
    }
}

let handler = LinkHandler()
handler.handle(.openLink(URL(string: "https://docs.example")!))
handler.handle(.share(url: URL(string: "https://share.example")!, title: "news"))
handler.handle(.close)
handler.handle(.openLink(URL(string: "https://other.example")!))
handler.drain([.share(url: URL(string: "https://b.example")!, title: "b"), .openLink(URL(string: "https://a.example")!), .close])
handler.retry()
handler.report()
handler.log.forEach { print($0) }
