import Hummingbird
import InventoryDomain

/// `/api/v1/customers/…` at the till: find a customer by their loyalty card (scanned, typed, or an NFC card's serial),
/// give them a card, and see their standing (visits, spend, milestones).
struct CustomerCardController<Store: CustomerCardRepository & SettingsRepository> {
    let store: Store

    func addRoutes(to customers: Routes) {
        customers.get("card/:number", .permission(.sell), use: self.byCard)
        customers.get(":id/standing", .permission(.sell), use: self.standing)
        // Handing a new customer a card is part of serving them; taking one away is a change to the customer list.
        customers.put(":id/card", .permission(.sell), use: self.setCard)
        customers.delete(":id/card", .permission(.editCatalogue), use: self.removeCard)
    }

    @Sendable func byCard(_ request: Request, context: AppRequestContext) async throws -> JSON<CustomerStandingResponse> {
        let number = context.parameters.get("number") ?? ""
        return JSON(CustomerStandingResponse(try await self.store.customer(cardNumber: number), try await self.store.formats().0))
    }

    @Sendable func standing(_ request: Request, context: AppRequestContext) async throws -> JSON<CustomerStandingResponse> {
        JSON(CustomerStandingResponse(try await self.store.customerStanding(CustomerID(try request.id(context))), try await self.store.formats().0))
    }

    @Sendable func setCard(_ request: Request, context: AppRequestContext) async throws -> JSON<CustomerStandingResponse> {
        let id = CustomerID(try request.id(context))
        let body = try await request.decodeJSON(as: CustomerCardRequest.self, context: context)
        return JSON(CustomerStandingResponse(try await self.store.setCustomerCard(id, number: body.cardNumber), try await self.store.formats().0))
    }

    @Sendable func removeCard(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await self.store.removeCustomerCard(CustomerID(try request.id(context)))
        return Response(status: .noContent)
    }
}

/// `PUT /api/v1/customers/{id}/card`.
struct CustomerCardRequest: Decodable, Sendable, KnownFields {
    var cardNumber: String
    static var fields: [String] { ["cardNumber"] }
}

/// A customer as the till greets them.
struct CustomerStandingResponse: Encodable, Sendable {
    var customerId: Int64
    var name: String
    var cardNumber: String?
    var visits: Int
    var spend: String
    var lastVisit: String?
    var milestonesReached: [Int]
    var nextMilestone: Int?

    init(_ s: CustomerStanding, _ f: Formats) {
        self.customerId = s.customerID.rawValue
        self.name = s.name
        self.cardNumber = s.cardNumber
        self.visits = s.visits
        self.spend = f.string(s.spend)
        self.lastVisit = s.lastVisit.map { Instant(milliseconds: $0).iso8601 }
        self.milestonesReached = s.milestonesReached
        self.nextMilestone = s.nextMilestone
    }
}
