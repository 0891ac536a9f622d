import Hummingbird
import InventoryDomain

/// `/api/v1/tabs`: open tabs, sales parked at a till under a name or a table (issue 12, point 9). They book nothing;
/// picking one up takes it off the list in one step (so two tills cannot both take it) and the till charges it as an
/// ordinary sale.
struct TabController<Store: TabRepository & SettingsRepository> {
    let store: Store

    func addRoutes(to tabs: Routes) {
        tabs.get(.permission(.sell), use: self.list)
        tabs.post(.permission(.sell), use: self.park)
        tabs.post(":id/pickup", .permission(.sell), use: self.pickUp)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSON<[TabResponse]> {
        let formats = try await self.store.formats().0
        return JSON(try await self.store.parkedSales().map { TabResponse($0, formats) })
    }

    @Sendable func park(_ request: Request, context: AppRequestContext) async throws -> JSON<TabResponse> {
        let body = try await request.decodeJSON(as: TabRequest.self, context: context)
        let formats = try await self.store.formats().0
        let parked = try await self.store.parkSale(try body.parked(formats, parkedBy: context.identity?.account.username ?? ""))
        return JSON(TabResponse(parked, formats), status: .created)
    }

    @Sendable func pickUp(_ request: Request, context: AppRequestContext) async throws -> JSON<TabResponse> {
        let formats = try await self.store.formats().0
        return JSON(TabResponse(try await self.store.pickUpParkedSale(ParkedSaleID(try request.id(context))), formats))
    }
}
