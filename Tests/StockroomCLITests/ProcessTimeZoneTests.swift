import Foundation
import Testing

@testable import StockroomCLI

/// `TZ` is named from the `/etc/localtime` link only when it is unset and the link names a zone Foundation knows.
@Suite struct ProcessTimeZoneTests {
    /// A folder with `localtime` pointing at `target` (or a plain file when nil).
    private func localtime(_ target: String?) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("localtime").path
        if let target {
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        } else {
            try Data("TZif".utf8).write(to: URL(fileURLWithPath: path))
        }
        return path
    }

    @Test func namesTheZoneTheLinkPointsAt() throws {
        #expect(ProcessTimeZone.name(environment: [:], localtime: try self.localtime("/usr/share/zoneinfo/Europe/Paris")) == "Europe/Paris")
        #expect(ProcessTimeZone.name(environment: [:], localtime: try self.localtime("../usr/share/zoneinfo/America/New_York")) == "America/New_York")
        #expect(ProcessTimeZone.name(environment: ["HOME": "/root"], localtime: try self.localtime("/usr/share/zoneinfo/Etc/UTC")) == "Etc/UTC")
    }

    @Test func leavesTZAloneOtherwise() throws {
        // TZ already set, even to the empty string (UTC for glibc).
        #expect(ProcessTimeZone.name(environment: ["TZ": "Asia/Tokyo"], localtime: try self.localtime("/usr/share/zoneinfo/Europe/Paris")) == nil)
        #expect(ProcessTimeZone.name(environment: ["TZ": ""], localtime: try self.localtime("/usr/share/zoneinfo/Europe/Paris")) == nil)
        // A plain file, no file, a link outside zoneinfo, an unknown zone, the posix/ and right/ variants.
        #expect(ProcessTimeZone.name(environment: [:], localtime: try self.localtime(nil)) == nil)
        #expect(ProcessTimeZone.name(environment: [:], localtime: "/nonexistent/localtime") == nil)
        #expect(ProcessTimeZone.name(environment: [:], localtime: try self.localtime("/etc/zones/Paris")) == nil)
        #expect(ProcessTimeZone.name(environment: [:], localtime: try self.localtime("/usr/share/zoneinfo/Mars/Olympus_Mons")) == nil)
        #expect(ProcessTimeZone.name(environment: [:], localtime: try self.localtime("/usr/share/zoneinfo/")) == nil)
        #expect(ProcessTimeZone.name(environment: [:], localtime: try self.localtime("/usr/share/zoneinfo/right/Europe/Paris")) == nil)
    }
}
