import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryServer
import InventoryStore
import Testing

@Suite struct TLSTests {
    func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-tls-\(UUID().uuidString)").path
    }

    @Test func selfSignedCertificateIsMadeOnceAndKept() throws {
        let data = self.folder()
        let first = try ShopCertificate.selfSigned(dataFolder: data, shopName: "Corner Café")
        let pem = try String(contentsOfFile: first.certificatePath, encoding: .utf8)
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----"))
        let attributes = try FileManager.default.attributesOfItem(atPath: first.keyPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // Started again: the same certificate, so devices that accepted it keep working.
        let second = try ShopCertificate.selfSigned(dataFolder: data, shopName: "Corner Café")
        #expect(try String(contentsOfFile: second.certificatePath, encoding: .utf8) == pem)
        // One about to expire is replaced.
        let later = try ShopCertificate.selfSigned(dataFolder: data, shopName: "Corner Café", now: Date().addingTimeInterval(380 * 86_400))
        #expect(try String(contentsOfFile: later.certificatePath, encoding: .utf8) != pem)
        _ = try later.tlsConfiguration()
    }

    @Test func extraNamesAreCoveredAndRenewMakesANewKey() throws {
        let data = self.folder()
        let first = try ShopCertificate.selfSigned(dataFolder: data, shopName: "Corner Café", extraNames: ["Till.Local", "192.168.7.20", "fd00::7"])
        let summary = try first.summary()
        #expect(summary.names.contains("localhost"))
        #expect(summary.names.contains("127.0.0.1"))
        #expect(summary.names.contains("till.local"))
        #expect(summary.names.contains("192.168.7.20"))
        #expect(summary.names.contains("fd00:0:0:0:0:0:0:7"))
        #expect(summary.sha256.split(separator: ":").count == 32)
        #expect(summary.notValidAfter > Date().addingTimeInterval(390 * 86_400))
        let key = try String(contentsOfFile: first.keyPath, encoding: .utf8)
        // Kept while it covers every name; a name it lacks or --renew makes a new one.
        _ = try ShopCertificate.selfSigned(dataFolder: data, shopName: "Corner Café", extraNames: ["till.local"])
        #expect(try first.summary().sha256 == summary.sha256)
        _ = try ShopCertificate.selfSigned(dataFolder: data, shopName: "Corner Café", extraNames: ["back-office.local"])
        let widened = try first.summary()
        #expect(widened.sha256 != summary.sha256 && widened.names.contains("back-office.local"))
        _ = try ShopCertificate.selfSigned(dataFolder: data, shopName: "Corner Café", renew: true)
        #expect(try String(contentsOfFile: first.keyPath, encoding: .utf8) != key)
        #expect(try first.summary().sha256 != widened.sha256)
    }

    @Test func aNameThatIsNeitherHostNorAddressIsRefusedAndNothingIsWritten() throws {
        let data = self.folder()
        for bad in ["", "shop_till", "-shop", "caf\u{e9}.local", "a..b", String(repeating: "x", count: 64) + ".local"] {
            let error = try #require(throws: TLSSetupError.self) {
                try ShopCertificate.selfSigned(dataFolder: data, shopName: "Shop", extraNames: [bad])
            }
            #expect(error.description.contains("neither a host name"), "\(bad): \(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: data + "/tls/certificate.pem"))
    }

    @Test func unreadableCertificateOrKeyIsAClearError() throws {
        let data = self.folder()
        let good = try ShopCertificate.selfSigned(dataFolder: data, shopName: "Shop")
        let missing = ShopCertificate(certificatePath: data + "/nope.pem", keyPath: good.keyPath)
        #expect(throws: TLSSetupError.self) { try missing.tlsConfiguration() }
        let badKey = ShopCertificate(certificatePath: good.certificatePath, keyPath: good.certificatePath)
        let error = try #require(throws: TLSSetupError.self) { try badKey.tlsConfiguration() }
        #expect(error.description.contains("private key"))
    }

    @Test func servesHTTPSWithSecureSessionCookies() async throws {
        let data = self.folder()
        let store = try InventorySQLiteRepository.inMemory()
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, secrets: testSecrets, dataFolder: data,
                                                tls: try ShopCertificate.selfSigned(dataFolder: data, shopName: "Shop"))
        let app = try buildApplication(configuration, repository: store)
        try await app.test(.ahc(.https)) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
            }
            let body = ByteBuffer(string: #"{"username":"owner","password":"long password"}"#)
            try await client.execute(uri: "/api/v1/auth/setup", method: .post, headers: [.contentType: "application/json"], body: body) { response in
                #expect(response.status == .created)
                let cookie = try #require(response.headers[.setCookie])
                #expect(cookie.contains("Secure"))
                #expect(cookie.contains("HttpOnly"))
                #expect(cookie.contains("SameSite=Strict"))
            }
        }
    }
}
