// Module PayRPCTransport: placeholder until its first file lands.
