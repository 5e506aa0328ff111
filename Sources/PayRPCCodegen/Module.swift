// Module PayRPCCodegen: placeholder until its first file lands.
