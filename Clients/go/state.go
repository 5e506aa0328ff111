package payrpc

import (
	"errors"
	"strings"
)

// stateArguments are the arguments after `serve --stdio` that say where a spawned server keeps
// its state: `--data dataDir` with WithDataDir (kept there); none with WithEphemeral(false)
// (the server's default data directory, kept); else `--ephemeral` (a temporary directory the
// server removes when it exits), unless args already say --data or --ephemeral. The error says
// which choices contradict each other.
func stateArguments(args []string, dataDir string, ephemeral *bool) ([]string, error) {
	namesData, namesEphemeral := false, false
	for _, arg := range args {
		namesData = namesData || arg == "--data" || strings.HasPrefix(arg, "--data=")
		namesEphemeral = namesEphemeral || arg == "--ephemeral"
	}
	wantsEphemeral := ephemeral != nil && *ephemeral
	if dataDir != "" {
		if wantsEphemeral || namesData {
			return nil, errors.New("payrpc: WithDataDir keeps the state in that directory: use neither WithEphemeral(true) nor --data with it")
		}
		return []string{"--data", dataDir}, nil
	}
	if wantsEphemeral && namesData {
		return nil, errors.New("payrpc: WithEphemeral(true) and --data in WithArgs exclude each other")
	}
	if (ephemeral != nil && !*ephemeral) || namesData || namesEphemeral {
		return nil, nil
	}
	return []string{"--ephemeral"}, nil
}
