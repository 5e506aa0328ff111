// TEMPORARY stand-in until branch `sensitive` lands (it replaces this file).
import PayRPCSchema

extension MethodDescriptor {
    public var paramsMask: SensitiveMask { .byName }
    public var resultMask: SensitiveMask { .byName }
}

extension NotificationDescriptor {
    public var paramsMask: SensitiveMask { .byName }
}
