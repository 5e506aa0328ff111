// Module PayRPCStore: placeholder until its first file lands.
