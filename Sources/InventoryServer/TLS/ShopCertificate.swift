import Crypto
import Foundation
import NIOCore
import NIOSSL
import SwiftASN1
import X509

/// HTTPS for the shop network. Phone browsers give a web page the camera only over HTTPS (or on localhost), so
/// `stockroom serve --tls` serves TLS with the shop's own certificate: one the shop supplies (`--tls-cert` and
/// `--tls-key`, PEM), or a self-signed one made here on first use and kept in `<data>/tls/`.
///
/// A self-signed certificate names `localhost`, this machine's host name and every IP address it has, so a phone
/// on the shop's network can open `https://<this machine's address>:<port>`. The browser warns once that it does not
/// know the issuer; accept it (or install `<data>/tls/certificate.pem` on the devices) and the camera works.
public struct ShopCertificate: Sendable {
    /// The certificate chain file (PEM).
    public var certificatePath: String
    /// The private key file (PEM).
    public var keyPath: String

    /// Uses the shop's own certificate and key.
    public init(certificatePath: String, keyPath: String) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
    }

    /// The self-signed certificate in `<folder>/tls/`, made (or remade, when it is about to expire or misses one of
    /// this machine's current names or of `extraNames`) first; `renew` makes a new one in any case.
    /// - Parameter extraNames: further host names or IP addresses the certificate must name (say, the shop's DNS name).
    /// - Throws: ``TLSSetupError`` naming an extra name that is neither a host name nor an IP address.
    public static func selfSigned(dataFolder: String, shopName: String, extraNames: [String] = [], renew: Bool = false,
                                  now: Date = Date()) throws -> ShopCertificate {
        let folder = URL(fileURLWithPath: dataFolder).appendingPathComponent("tls")
        let files = ShopCertificate(certificatePath: folder.appendingPathComponent("certificate.pem").path,
                                    keyPath: folder.appendingPathComponent("key.pem").path)
        var names = Self.machineNames()
        for extra in extraNames {
            let name = try Self.generalName(extra)
            if !names.contains(name) { names.append(name) }
        }
        if !renew, let existing = try? String(contentsOfFile: files.certificatePath, encoding: .utf8),
           let certificate = try? Certificate(pemEncoded: existing), FileManager.default.fileExists(atPath: files.keyPath),
           certificate.notValidAfter > now.addingTimeInterval(30 * 86_400),
           let covered = try? certificate.extensions.subjectAlternativeNames, Set(names.map(\.description)).isSubset(of: Set(covered.map(\.description))) {
            return files
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName {
            CommonName("Stockroom — \(shopName)")
            OrganizationName("Stockroom")
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(397 * 86_400),  // browsers accept ≤ 398 days
            issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true, keyEncipherment: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: .init(key))
        try PrivateFile.write(Data(key.pemRepresentation.utf8), to: files.keyPath)
        try PrivateFile.write(Data(try certificate.serializeAsPEM().pemString.utf8), to: files.certificatePath)
        return files
    }

    /// A host name (`shop.local`) or an IPv4/IPv6 address as a certificate name.
    static func generalName(_ text: String) throws -> GeneralName {
        if let address = try? SocketAddress(ipAddress: text, port: 0) {
            switch address {
            case .v4(let v4):
                return .ipAddress(ASN1OctetString(contentBytes: ArraySlice(withUnsafeBytes(of: v4.address.sin_addr) { Array($0) })))
            case .v6(let v6):
                return .ipAddress(ASN1OctetString(contentBytes: ArraySlice(withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) })))
            default:
                break
            }
        }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !text.isEmpty, text.count <= 253, labels.allSatisfy({ label in
            !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                && label.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" }
        }) else {
            throw TLSSetupError("'\(text)' is neither a host name (letters, digits, '-' and '.') nor an IP address")
        }
        return .dnsName(text.lowercased())
    }

    /// What a person checks before trusting the certificate on a device: the names it covers, when it expires, and
    /// its SHA-256 fingerprint (the one browsers show in the certificate viewer).
    public func summary() throws -> (names: [String], notValidAfter: Date, sha256: String) {
        let pem = try String(contentsOfFile: self.certificatePath, encoding: .utf8)
        let certificate = try Certificate(pemEncoded: pem)
        let der = try PEMDocument(pemString: pem).derBytes
        let fingerprint = SHA256.hash(data: der).map { String(format: "%02X", $0) }.joined(separator: ":")
        let names = (try certificate.extensions.subjectAlternativeNames).map { Array($0) } ?? []
        return (names.map(Self.display), certificate.notValidAfter, fingerprint)
    }

    static func display(_ name: GeneralName) -> String {
        switch name {
        case .dnsName(let dns):
            return dns
        case .ipAddress(let octets):
            let bytes = Array(octets.bytes)
            if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
            return stride(from: 0, to: bytes.count, by: 2).map { String(format: "%x", Int(bytes[$0]) << 8 | Int(bytes[$0 + 1])) }.joined(separator: ":")
        default:
            return name.description
        }
    }

    /// The server's TLS configuration from the two files; a clear error when either cannot be read.
    public func tlsConfiguration() throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(self.certificatePath)
        } catch {
            throw TLSSetupError("cannot read the TLS certificate \(self.certificatePath): \(error)")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: self.keyPath, format: .pem)
        } catch {
            throw TLSSetupError("cannot read the TLS private key \(self.keyPath): \(error)")
        }
        guard !chain.isEmpty else { throw TLSSetupError("the TLS certificate file \(self.certificatePath) holds no certificate") }
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
    }

    /// `localhost`, the host name, and every IPv4/IPv6 address of this machine.
    static func machineNames() -> [GeneralName] {
        var names: [GeneralName] = [.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))]
        let host = ProcessInfo.processInfo.hostName
        if !host.isEmpty, host != "localhost", host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }) {
            names.append(.dnsName(host))
        }
        for device in (try? System.enumerateDevices()) ?? [] {
            guard let address = device.address else { continue }
            var bytes: [UInt8]?
            switch address {
            case .v4(let v4):
                bytes = withUnsafeBytes(of: v4.address.sin_addr) { Array($0) }
            case .v6(let v6):
                bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            default:
                bytes = nil
            }
            // Skip link-local IPv6 (fe80::/10): they need a zone and no browser opens them.
            if let bytes, !(bytes.count == 16 && bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80) {
                let name = GeneralName.ipAddress(ASN1OctetString(contentBytes: ArraySlice(bytes)))
                if !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// The `https://` addresses a phone on the shop network can open.
    public static func addresses(port: Int) -> [String] {
        var result: [String] = []
        for device in (try? System.enumerateDevices()) ?? [] {
            guard case .v4 = device.address, let ip = device.address?.ipAddress, ip != "127.0.0.1" else { continue }
            let url = "https://\(ip):\(port)"
            if !result.contains(url) { result.append(url) }
        }
        return result
    }
}

/// TLS cannot be set up (an unreadable certificate or key).
public struct TLSSetupError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
