import Foundation

// This file does not parse (an unclosed call below); the rebinding before it is still rewritten.
final class Half {
    func go() {
        run { [weak self] in
            guard let self else { return }
            self.step()
        }
        let values = compute(1, 2,
    }
}
