import Foundation

// CRLF line endings, and a rebinding spread over lines. ✅
final class Sync {
    func go() {
        run { [weak self] in
            guard let `self` = self,
                  self.enabled else { return }
            self.flush()
        }
    }
}
