import BarcodeReader
import Testing

@Test func grayscaleImageRejectsWrongByteCount() {
    #expect(GrayscaleImage(width: 2, height: 2, pixels: [0, 0, 0]) == nil)
    #expect(GrayscaleImage(width: 2, height: 2, pixels: [0, 0, 0, 0]) != nil)
}
