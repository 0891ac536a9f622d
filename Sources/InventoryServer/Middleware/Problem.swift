import Foundation
import HTTPTypes
import Hummingbird
import InventoryDomain
import Logging

/// An RFC 9457 problem: `application/problem+json` with the field at fault and the reason.
public struct Problem: Error, HTTPResponseError, Sendable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A short, stable summary of the kind of problem.
    public var title: String
    /// What happened and how to fix it.
    public var detail: String
    /// The input field at fault, when one is.
    public var field: String?
    /// A stable code (`invalidValue`, `notFound` …).
    public var code: ProblemCode
    /// The stored document line the refusal is about, when it is not a line of the request (`document` in the body).
    public var document: AffectedLine?
    /// Whether a manager's approval lifts the refusal (``InventoryError/managerMayApprove``); `managerMayApprove: true`
    /// in the body, absent otherwise.
    public var managerMayApprove = false

    /// Creates a problem.
    public init(_ status: HTTPResponse.Status, code: ProblemCode, title: String, detail: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.field = field
    }

    struct Body: Encodable {
        var type: String
        var title: String
        var status: Int
        var detail: String
        var field: String?
        var code: ProblemCode
        var document: Document?
        var managerMayApprove: Bool?
    }

    /// `document`: which stored document line a change would leave short, on which shop day, by how much.
    struct Document: Encodable {
        var kind: String
        var id: Int64
        var line: Int
        var date: String
        var productId: Int64
        var productName: String
        var missing: String

        init(_ line: AffectedLine) {
            self.kind = line.kind.rawValue
            self.id = line.documentID
            self.line = line.line
            self.date = line.date
            self.productId = line.productID.rawValue
            self.productName = line.productName
            self.missing = line.missing.decimalString
        }
    }

    /// Renders the problem as `application/problem+json`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(type: "https://stockroom.invalid/problems/\(self.code.rawValue)", title: self.title, status: self.status.code,
                        detail: self.detail, field: self.field, code: self.code, document: self.document.map(Document.init),
                        managerMayApprove: self.managerMayApprove ? true : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(body)) ?? Data()
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        // Nothing was done; a client (or a load balancer) may send the same request again in a moment.
        if self.status == .serviceUnavailable { headers[.retryAfter] = "2" }
        return Response(status: self.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The problem for a refused domain command.
    public init(_ error: InventoryError) {
        let code = ProblemCode(error.code)
        let (status, title) = code.domainRefusal
        self.init(status, code: code, title: title, detail: error.userMessage, field: error.field)
        self.document = error.document
        self.managerMayApprove = error.managerMayApprove
    }
}

/// Turns every error into a problem response: domain refusals keep their field and reason, malformed requests
/// become 400s, and anything unexpected is logged in full and answered with a generic 500.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            var response = try await next(request, context)
            response.headers[.requestID] = context.id
            return response
        } catch let problem as Problem {
            return try self.respond(problem, request, context)
        } catch let error as InventoryError {
            if error.code == .storage {
                context.logger.error("storage failure", metadata: ["error": "\(String(reflecting: error.cause ?? error))"])
            }
            return try self.respond(Problem(error), request, context)
        } catch let error as ImportProblem {
            var response = try error.response(from: request, context: context)
            response.headers[.requestID] = context.id
            return response
        } catch let error as DecodingError {
            return try self.respond(Problem(decoding: error), request, context)
        } catch let error as any HTTPResponseError {
            let problem = Problem(error.status, code: error.status.code == 404 ? .notFound : .badRequest,
                                  title: error.status.reasonPhrase, detail: Self.message(of: error), field: nil)
            return try self.respond(problem, request, context)
        } catch {
            context.logger.error("unexpected error", metadata: ["error": "\(String(reflecting: error))"])
            return try self.respond(Problem(.internalServerError, code: .internal, title: "Internal error",
                                            detail: "something went wrong on the server; the log has the details (request \(context.id))"),
                                    request, context)
        }
    }

    private func respond(_ problem: Problem, _ request: Request, _ context: Context) throws -> Response {
        var response = try problem.response(from: request, context: context)
        response.headers[.requestID] = context.id
        return response
    }

    static func message(of error: any HTTPResponseError) -> String {
        if let http = error as? HTTPError, let message = http.body { return message }
        return error.status.reasonPhrase
    }
}

extension Problem {
    /// A 400 naming the JSON path of a malformed or mistyped value.
    init(decoding error: DecodingError) {
        func path(_ codingPath: [any CodingKey]) -> String? {
            let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            let trimmed = text.hasPrefix(".") ? String(text.dropFirst()) : text
            return trimmed.isEmpty ? nil : trimmed
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(.badRequest, code: .missingValue, title: "Missing value", detail: "is required",
                      field: path(context.codingPath + [key]))
        case .typeMismatch(let type, let context):
            self.init(.badRequest, code: .invalidValue, title: "Wrong type", detail: "must be \(Self.describe(type))", field: path(context.codingPath))
        case .valueNotFound(let type, let context):
            self.init(.badRequest, code: .missingValue, title: "Missing value", detail: "must be \(Self.describe(type)), not null", field: path(context.codingPath))
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                self.init(.badRequest, code: .malformedJSON, title: "Malformed JSON", detail: "the request body is not valid JSON")
            } else {
                self.init(.badRequest, code: .invalidValue, title: "Invalid value", detail: context.debugDescription, field: path(context.codingPath))
            }
        @unknown default:
            self.init(.badRequest, code: .badRequest, title: "Bad request", detail: "the request body cannot be read")
        }
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Bool.Type: "true or false"
        default: "a value of type \(type)"
        }
    }
}

extension HTTPField.Name {
    /// `X-Request-Id`: the id under which the server logged the request.
    static var requestID: Self {
        guard let name = Self("X-Request-Id") else { preconditionFailure("X-Request-Id is a valid header name") }
        return name
    }
}
