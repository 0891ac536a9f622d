import InventoryDomain

extension StockroomCommand {
    /// Runs the command line with its writes audited as made by the person at the terminal
    /// (``Agent/commandLine(user:)``); under `serve`, each request is audited as its signed-in caller instead.
    public static func mainAsCommandLine() async {
        await Agent.$current.withValue(.commandLine()) { await self.main(nil) }
    }
}
