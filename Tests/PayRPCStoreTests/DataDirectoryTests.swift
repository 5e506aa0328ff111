import Foundation
import PayRPCStore
import Testing

@Suite("Data directory resolution")
struct DataDirectoryTests {
    let environment = ["HOME": "/home/tester", "XDG_DATA_HOME": "/xdg/data"]

    @Test("--data wins, with ~ expanded")
    func explicit() {
        #expect(DataDirectory.resolve(explicit: "/srv/payrpc", environment: environment).path == "/srv/payrpc")
        #expect(DataDirectory.resolve(explicit: "~/state", environment: environment).path == "/home/tester/state")
    }

    @Test("then $XDG_DATA_HOME/payrpc, when absolute")
    func xdg() {
        #expect(DataDirectory.resolve(explicit: nil, environment: environment).path == "/xdg/data/payrpc")
        #expect(
            DataDirectory.resolve(explicit: nil, environment: ["HOME": "/home/tester", "XDG_DATA_HOME": "relative"]).path
                == "/home/tester/.local/share/payrpc")
    }

    @Test("without an environment given, the process's own, read variable by variable")
    func processEnvironment() {
        for explicit in [nil, "~/state", "/srv/payrpc"] {
            #expect(
                DataDirectory.resolve(explicit: explicit)
                    == DataDirectory.resolve(explicit: explicit, environment: ProcessInfo.processInfo.environment))
        }
    }

    @Test("else ~/.local/share/payrpc")
    func home() {
        #expect(
            DataDirectory.resolve(explicit: nil, environment: ["HOME": "/home/tester"]).path
                == "/home/tester/.local/share/payrpc")
    }
}
