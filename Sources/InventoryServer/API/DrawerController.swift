import Hummingbird
import InventoryDomain

/// `/api/v1/drawer`: the cash drawer. Staff open a session with a counted float, put cash in or take it out with a
/// reason, see the X report at any time and close with the counted cash (the Z report, kept); managers list past
/// sessions and export their reports.
struct DrawerController<Store: DrawerRepository & SettingsRepository> {
    let store: Store

    func addRoutes(to drawer: Routes) {
        drawer.get(.permission(.sell), use: self.current)
        drawer.post("open", .permission(.sell), use: self.open)
        drawer.post("cash", .permission(.sell), use: self.cash)
        drawer.post("close", .permission(.sell), use: self.close)
        drawer.get("sessions", .permission(.viewReports), use: self.list)
        drawer.get("sessions/:id", .permission(.viewReports), use: self.get)
        drawer.get("sessions/:id/report.csv", .permission(.viewReports), use: self.csv)
    }

    func answer(_ session: DrawerSession, _ formats: Formats) async throws -> DrawerResponse {
        DrawerResponse(session, report: try await self.store.drawerReport(session.id, now: Instant.now.milliseconds), formats)
    }

    @Sendable func current(_ request: Request, context: AppRequestContext) async throws -> JSON<CurrentDrawerResponse> {
        let formats = try await self.store.formats().0
        guard let session = try await self.store.currentDrawer() else { return JSON(CurrentDrawerResponse(session: nil)) }
        return JSON(CurrentDrawerResponse(session: try await self.answer(session, formats)))
    }

    @Sendable func open(_ request: Request, context: AppRequestContext) async throws -> JSON<DrawerResponse> {
        let body = try await request.decodeJSON(as: DrawerOpenRequest.self, context: context)
        let formats = try await self.store.formats().0
        let session = try await self.store.openDrawer(float: try formats.money(body.openingFloat, field: "openingFloat"), note: body.note ?? "",
                                                      by: context.identity?.account.username ?? "", at: Instant.now.milliseconds)
        return JSON(try await self.answer(session, formats), status: .created)
    }

    @Sendable func cash(_ request: Request, context: AppRequestContext) async throws -> JSON<DrawerResponse> {
        let body = try await request.decodeJSON(as: DrawerCashRequest.self, context: context)
        let formats = try await self.store.formats().0
        guard body.direction == "in" || body.direction == "out" else {
            throw InventoryError(.invalidValue, field: "direction", "must be in or out")
        }
        let amount = try formats.money(body.amount, field: "amount")
        guard amount > .zero else { throw InventoryError(.invalidValue, field: "amount", "must be more than zero") }
        let session = try await self.store.moveCash(amount: body.direction == "in" ? amount : Money.zero - amount, reason: body.reason,
                                                    by: context.identity?.account.username ?? "", at: Instant.now.milliseconds)
        return JSON(try await self.answer(session, formats))
    }

    @Sendable func close(_ request: Request, context: AppRequestContext) async throws -> JSON<DrawerResponse> {
        let body = try await request.decodeJSON(as: DrawerCloseRequest.self, context: context)
        let formats = try await self.store.formats().0
        let session = try await self.store.closeDrawer(counted: try formats.money(body.countedCash, field: "countedCash"),
                                                       by: context.identity?.account.username ?? "", at: Instant.now.milliseconds)
        return JSON(try await self.answer(session, formats))
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSON<[DrawerResponse]> {
        let (limit, offset) = try request.page()
        let formats = try await self.store.formats().0
        var answers: [DrawerResponse] = []
        for session in try await self.store.drawerSessions(limit: limit, offset: offset) { answers.append(try await self.answer(session, formats)) }
        return JSON(answers)
    }

    @Sendable func get(_ request: Request, context: AppRequestContext) async throws -> JSON<DrawerResponse> {
        let formats = try await self.store.formats().0
        return JSON(try await self.answer(try await self.store.drawerSession(DrawerSessionID(try request.id(context))), formats))
    }

    @Sendable func csv(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = DrawerSessionID(try request.id(context))
        let formats = try await self.store.formats().0
        let text = try await self.store.drawerReport(id, now: Instant.now.milliseconds).csv(currency: formats.currency)
        return try CSVFile(text: text, name: "drawer", suffix: id.description).response(from: request, context: context)
    }
}
