import GRDB
import PayRPCStore
/// Reads made while the server starts, before any request is served.
extension SQLiteStateStore {
    /// Runs `body` on a consistent read, synchronously on the caller's thread; see
    /// ``StoreAdministration/readAtStartUp(_:)``.
    public func readAtStartUp<R>(_ body: (StoreReader) throws -> R) throws -> R {
        do {
            return try pool.read { db in try body(StoreReader(SQLiteDocuments(db: db, time: 0))) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.from(error, operation: "reading at start-up")
        }
    }
}
