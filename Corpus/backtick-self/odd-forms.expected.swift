import Foundation

// Forms of backtick rebinding that are found (and counted by scan) but rewritten by hand, and one
// with a line comment inside that is rewritten without swallowing the next condition.
final class Loader {
    func load() {
        fetch { [weak self] in
            guard let `self`: Loader = self else { return }
            guard case let `self`? = self else { return }
            guard let `self` = self as? SpecialLoader else { return }
            self.finish()
        }
        fetch { [weak self] in
            guard
                let self // keep the loader alive until the end
                    ,
                let model = self.model
            else { return }
            self.render(model)
        }
    }
}
