import ArgumentParser
import Foundation
import InventoryServer

/// `stockroom cert`: the self-signed HTTPS certificate for the shop network.
struct CertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cert", abstract: "Make (or show) the self-signed HTTPS certificate for this machine's names and addresses.",
        discussion: """
            Phone browsers give the camera only to HTTPS pages. The certificate is kept in <data>/tls/ \
            (certificate.pem, key.pem) and names localhost, this machine's host name and every IP address it has, \
            plus any --name given; `stockroom serve --tls` uses it. It is made again when it expires within 30 days, \
            misses a name, or --renew is given. Install certificate.pem on the shop's devices as trusted, or accept \
            the browser's warning once; compare the SHA-256 fingerprint printed here with the one the browser shows.
            """)
    @OptionGroup var database: DatabaseOptions
    @Option(name: .customLong("name"), help: "A further host name or IP address to cover (repeatable), e.g. --name till.local.")
    var names: [String] = []
    @Flag(help: "Make a new certificate and key even if the current one is still good.") var renew = false

    func run() async throws { try await self.run(on: try await self.database.open()) }


    func run(on store: some ShopStore) async throws {
        let shopName = try await store.settings().shopName
        let certificate: ShopCertificate
        do {
            certificate = try ShopCertificate.selfSigned(dataFolder: self.database.folder, shopName: shopName, extraNames: self.names, renew: self.renew)
        } catch let error as TLSSetupError {
            throw ValidationError("--name: \(error.description)")
        }
        let summary = try certificate.summary()
        let expiry = ISO8601DateFormatter.string(from: summary.notValidAfter, timeZone: TimeZone(identifier: "UTC") ?? .current,
                                                 formatOptions: [.withFullDate])
        print("certificate  \(certificate.certificatePath)")
        print("private key  \(certificate.keyPath)")
        print("names        \(summary.names.joined(separator: ", "))")
        print("valid until  \(expiry)")
        print("SHA-256      \(summary.sha256)")
        print("serve it with: stockroom serve --data \(self.database.folder) --host 0.0.0.0 --tls")
    }
}
