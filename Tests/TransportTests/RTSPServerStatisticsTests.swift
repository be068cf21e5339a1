import Testing
import Transport

/// The server's statistics read as a sentence in `streamkit serve`'s summary, not as a Swift dump.
struct RTSPServerStatisticsTests {
    @Test func statisticsReadAsASentence() {
        var statistics = RTSPServer.Statistics()
        statistics.connectionsAccepted = 3
        statistics.requestsRefused = 1
        statistics.sessionsTimedOut = 2
        #expect("\(statistics)" == "3 connections, 1 request refused, 2 sessions timed out")
        statistics.connectionsAccepted = 1
        statistics.requestsRefused = 0
        statistics.sessionsTimedOut = 0
        statistics.openConnections = 1
        statistics.sessions = 1
        #expect("\(statistics)" == "1 connection, 1 open, 1 session now")
        #expect(!"\(RTSPServer.Statistics())".contains("Statistics("))
    }
}
