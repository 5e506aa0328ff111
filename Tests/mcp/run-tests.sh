#!/bin/sh
# Runs the MCP tests (payrpc serve --mcp) with real MCP clients from PyPI, pinned in
# requirements.txt: the `mcp` SDK's client in both protocol eras, and amagi-mcp-probe calling
# every tool with generated arguments.
#
#   PAYRPC_BIN=/path/to/payrpc Tests/mcp/run-tests.sh [pytest args...]
#
# The environment lives in Tests/mcp/.venv (git-ignored); nothing is installed globally.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${PAYRPC_BIN:-}" ]; then
    echo "run-tests.sh: set PAYRPC_BIN to the payrpc binary (swift build --product payrpc)" >&2
    exit 2
fi
case "$PAYRPC_BIN" in
    /*) ;;
    *) PAYRPC_BIN="$(pwd)/$PAYRPC_BIN" ;;
esac
export PAYRPC_BIN
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
cd "$here"
PATH="$venv/bin:$PATH" exec "$venv/bin/python" -m pytest "$@"
