// Module TatraService: placeholder until its first file lands.
