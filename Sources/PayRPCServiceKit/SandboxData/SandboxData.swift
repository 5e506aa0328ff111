#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import Foundation

/// Reads a service's sandbox data file: one loader for every service.
public enum SandboxData {
    /// The sandbox data of `model`'s service from `file` (`--sandbox-data SERVICE=FILE`), or from
    /// the file shipped with the service when nil: read by the model's codec, then checked
    /// (``SandboxDataModel/check()``).
    /// - Throws: ``SandboxDataError`` naming the file and the JSON Pointer of the bad value.
    public static func load<Model: SandboxDataModel>(_ model: Model.Type, from file: URL?) throws(SandboxDataError) -> Model {
        guard let url = file ?? Model.bundledFile else {
            throw SandboxDataError(file: "\(Model.service)-sandbox.json", message: "the file shipped with the service is missing")
        }
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: url))
        } catch {
            throw SandboxDataError(file: url.path, message: "cannot be read: \(error.localizedDescription)")
        }
        return try parse(Model.self, bytes, file: url.path)
    }

    /// The sandbox data in `bytes` (the text of a file named `file`).
    /// - Throws: ``SandboxDataError`` naming the file and the JSON Pointer of the bad value.
    public static func parse<Model: SandboxDataModel>(_ model: Model.Type, _ bytes: [UInt8], file: String)
        throws(SandboxDataError) -> Model
    {
        let tape: JSONTape
        do {
            tape = try JSONTape(copying: bytes)
        } catch {
            throw SandboxDataError(file: file, message: "not JSON: \(error)")
        }
        do {
            let data = try tape.withRoot { root throws(JSONDecodingError) in try Model(json: root) }
            try data.check()
            return data
        } catch let error as JSONDecodingError {
            throw SandboxDataError(file: file, pointer: error.pointer, message: error.message)
        } catch let problem as SandboxDataProblem {
            throw SandboxDataError(file: file, pointer: problem.pointer, message: problem.message)
        } catch {
            throw SandboxDataError(file: file, message: "\(error)")
        }
    }
}
