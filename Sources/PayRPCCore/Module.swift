// Module PayRPCCore: placeholder until its first file lands.
