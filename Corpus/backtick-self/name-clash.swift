import Foundation

// (Run with --param binding=this.) `this` is already taken in the closure: the site is refused with a note, never shadowed.
final class Uploader {
    func start(this: Int) {
        queue.async { [weak self] in
            guard let `self` = self else { return }
            self.send(this)
        }
    }

    func resume() {
        queue.async { [weak self] in
            guard let `self` = self else { return }
            self.send(1)
        }
    }

    func send(_ value: Int) {}
}
