import BarcodeImage
import BarcodeReader
import Hummingbird
import InventoryDomain

/// `POST /api/v1/barcodes/decode`: the codes in a picture (PNG, JPEG) or a raw grey camera frame, each with the product
/// that has it.
struct BarcodeController<Store: CatalogueRepository & SettingsRepository> {
    let store: Store
    let reader: BarcodeReader

    func addRoutes(to barcodes: Routes) {
        barcodes.post("decode", .permission(.scan), use: self.decode)
    }

    @Sendable func decode(_ request: Request, context: some RequestContext) async throws -> JSON<BarcodeDecodeResponse> {
        let buffer = try await request.body.collect(upTo: 8 << 20)
        let bytes = Array(buffer.readableBytesView)
        let frame: GrayscaleImage?
        if let width = request.query("width"), let height = request.query("height") {
            guard let w = Int(width), let h = Int(height), w > 0, h > 0, w <= 8192, h <= 8192,
                  let gray = GrayscaleImage(width: w, height: h, pixels: bytes) else {
                throw InventoryError(.invalidValue, field: "width", "a raw frame needs width × height bytes (got \(bytes.count))")
            }
            frame = gray
        } else {
            frame = nil
            // The declared size is checked before anything is decoded (ImageLimits.barcode: 12,000 px a side, 40 MP).
            do throws(ImageLoadError) {
                try ImageHeader.read(bytes).check(.barcode)
            } catch {
                throw Self.refusal(error)
            }
        }
        // Decoding and reading run behind the process-wide gate (two at a time), off the request threads.
        let reader = self.reader
        let outcome = await ImageDecodeGate.shared.run { () -> Result<(GrayscaleImage, [DecodedBarcode], Duration), ImageLoadError> in
            do throws(ImageLoadError) {
                let image: GrayscaleImage
                if let frame { image = frame } else { image = try ImageLoader.decode(bytes, limits: .barcode) }
                let clock = ContinuousClock()
                let start = clock.now
                let found = reader.decode(image)
                return .success((image, found, clock.now - start))
            } catch {
                return .failure(error)
            }
        }
        let image: GrayscaleImage, found: [DecodedBarcode], elapsed: Duration
        switch outcome {
        case .success(let result): (image, found, elapsed) = result
        case .failure(let error): throw Self.refusal(error)
        }
        let (f, _) = try await self.store.formats()
        let thresholds = try await self.store.stockThresholds()
        var codes: [BarcodeDecodeResponse.Code] = []
        for code in found {
            let product = try await self.store.product(barcode: code.text)
            codes.append(.init(format: code.format.rawValue, text: code.text, addOn: code.addOn, gs1: code.gs1,
                               product: product.map { ProductResponse($0, formats: f, thresholds: thresholds) }))
        }
        let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        return JSON(BarcodeDecodeResponse(width: image.width, height: image.height, milliseconds: ms, barcodes: codes))
    }

    /// A picture sent for decoding that is refused, on the `body` field.
    static func refusal(_ error: ImageLoadError) -> InventoryError {
        error.code == .tooLarge
            ? InventoryError(.invalidValue, field: "body", error.message)
            : InventoryError(.invalidValue, field: "body", "not a readable PNG or JPEG image: \(error.description)")
    }
}
