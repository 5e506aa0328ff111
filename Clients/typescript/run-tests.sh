#!/bin/sh
# Builds the TypeScript client (build.sh: Debian's tsc into dist/) and runs its tests
# (node --test) against a real payrpc binary.
#
#   PAYRPC_BIN=/path/to/payrpc Clients/typescript/run-tests.sh [test files...]
#
# Needs Debian's node-typescript (tsc), node-ajv and npm (the packaging test installs the
# packed client offline), and Node.js 18+. No npm registry is used.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

fail() {
    echo "run-tests.sh: $*" >&2
    exit 2
}

if [ -z "${PAYRPC_BIN:-}" ]; then
    fail "set PAYRPC_BIN to the payrpc binary (swift build --product payrpc)"
fi
case "$PAYRPC_BIN" in
    /*) ;;
    *) PAYRPC_BIN="$(pwd)/$PAYRPC_BIN" ;;
esac
[ -x "$PAYRPC_BIN" ] || fail "PAYRPC_BIN=$PAYRPC_BIN is not an executable file"
export PAYRPC_BIN

command -v node >/dev/null 2>&1 || fail "node is missing (Debian package nodejs, or Node.js 18+)"
# Debian's Node module folder, where node-ajv put ajv (asked of dpkg, not assumed);
# PAYRPC_NODE_MODULES overrides it.
debian_modules=${PAYRPC_NODE_MODULES:-$(dpkg -L node-ajv 2>/dev/null | sed -n 's#/ajv/package\.json$##p' | head -n 1)}
[ -n "$debian_modules" ] && [ -f "$debian_modules/ajv/package.json" ] || fail "ajv is missing (Debian package node-ajv)"
# Debian's module folder: Node from elsewhere (nodesource) does not look there by itself.
export NODE_PATH="$debian_modules${NODE_PATH:+:$NODE_PATH}"

"$here/build.sh"

# The package can import itself by name (`import ... from "payrpc"`, as the README does).
mkdir -p "$here/node_modules"
ln -sfn .. "$here/node_modules/payrpc"

cd "$here"
if [ "$#" -eq 0 ]; then
    set -- dist/test/*.test.js
fi
exec node --test "$@" </dev/null
