#!/bin/sh
# Runs the Python client's tests in a private virtual environment against a real payrpc binary.
#
#   PAYRPC_BIN=/path/to/payrpc Clients/python/run-tests.sh [pytest args...]
#
# The environment lives in Clients/python/.venv (git-ignored); nothing is installed globally.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${PAYRPC_BIN:-}" ]; then
    if command -v payrpc >/dev/null 2>&1; then
        PAYRPC_BIN=$(command -v payrpc)
    else
        echo "run-tests.sh: set PAYRPC_BIN to the payrpc binary (swift build --product payrpc)" >&2
        exit 2
    fi
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
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$here[test]"
cd "$here"
exec "$venv/bin/python" -m pytest "$@"
