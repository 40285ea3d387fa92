import UIKit

/// Decoded avatars and thumbnails, kept in memory and on disk.
final class ImageCache {
    static let shared = ImageCache()

    private let memory = NSCache<NSString, UIImage>()
    private var inFlight: Array<String> = []
    private let folder: URL

    init(folder: URL = FileManager.default.temporaryDirectory.appendingPathComponent("images")) {
        self.folder = folder
    }

    func image(for key: String, completion: @escaping (UIImage?) -> Void) {
        if let cached = memory.object(forKey: key as NSString) {
            completion(cached)
            return
        }
        inFlight.append(key)
        DispatchQueue.global(qos: .utility /* was .background until the cache moved to disk */).async {
            let url = self.folder.appendingPathComponent(key)
            let image = (try? Data(contentsOf: url)).flatMap(UIImage.init(data:))
            DispatchQueue.main.async {
                self.inFlight.removeAll { $0 == key }
                completion(image)
            }
        }
    }

    func trim() {
        DispatchQueue.global().async {
            self.memory.removeAllObjects()
            let files = (try? FileManager.default.contentsOfDirectory(at: self.folder, includingPropertiesForKeys: nil)) ?? []
            for file in files where file.pathExtension == "tmp" {
                try? FileManager.default.removeItem(at: file)
            }
        }
    }

    func warm(_ keys: [String]) async {
        for key in keys where memory.object(forKey: key as NSString) == nil {
            let data = try? await URLSession.shared.data(from: folder.appendingPathComponent(key)).0
            if let data, let image = UIImage(data: data) {
                memory.setObject(image, forKey: key as NSString)
            }
        }
        if inFlight.count == 0 {
            print("cache warm: \(keys.count) keys")
        }
    }
}
