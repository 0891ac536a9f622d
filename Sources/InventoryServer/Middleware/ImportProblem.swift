import Foundation
import Hummingbird
import InventoryDomain

/// A refused import: every bad row with its line, as a problem document.
struct ImportProblem: Error, HTTPResponseError {
    var failure: ProductImportFailure
    var status: HTTPResponse.Status { .unprocessableContent }

    struct Body: Encodable {
        var type = "https://stockroom.invalid/problems/\(ProblemCode.invalidImport.rawValue)"
        var title = "Import refused"
        var status = 422
        var detail: String
        var code = ProblemCode.invalidImport
        var errors: [Entry]
        struct Entry: Encodable {
            var line: Int
            var field: String?
            var message: String
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(detail: "\(self.failure.problems.count) problem(s); nothing was written",
                        errors: self.failure.problems.map { .init(line: $0.line, field: $0.field, message: $0.message) })
        let data = try JSONEncoder().encode(body)
        return Response(status: self.status, headers: [.contentType: "application/problem+json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
