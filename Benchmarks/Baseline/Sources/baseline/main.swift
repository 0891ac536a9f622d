import Hummingbird

/// A bare Hummingbird app, the ceiling Stockroom's routes are measured against: `baseline PORT` answers
/// `GET /json` with a constant JSON object and `GET /health` with "ok" on 127.0.0.1.
struct Reply: ResponseEncodable {
    let id: Int
    let name: String
    let barcode: String
    let salePrice: String
}

let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 8080
let router = Router()
router.get("/json") { _, _ in Reply(id: 1, name: "Oat milk 1 l", barcode: "4006381333931", salePrice: "2.49") }
router.get("/health") { _, _ in "ok" }
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "Baseline"))
try await app.runService()
