import Foundation
// Legacy: decodes images with UIKit. A service should hand back Data and let the UI decode it.
import UIKit

/// Loads feed images.
public final class ImageLoader {
    public init() {}

    public func image(from data: Data) -> UIImage? {
        UIImage(data: data)
    }
}
