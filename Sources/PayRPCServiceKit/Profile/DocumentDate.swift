// `Date` for every file that imports the kit: the type of the stored documents' times (a card's
// `registeredAt`, an order's `expiresAt`), from FoundationEssentials where the toolchain has it
// and Foundation elsewhere. Written here once, so that a document's file imports the kit and not
// this `#if`.
#if canImport(FoundationEssentials)
@_exported public import struct FoundationEssentials.Date
#else
@_exported public import struct Foundation.Date
#endif
