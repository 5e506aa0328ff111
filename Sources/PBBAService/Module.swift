// Module PBBAService: placeholder until its first file lands.
