// Module PayRPCGateway: placeholder until its first file lands.
