import StockroomCLI

/// The `stockroom` executable: hands the command line to ``StockroomCommand``.
@main
enum Stockroom {
    static func main() async {
        await StockroomCommand.mainAsCommandLine()
    }
}
