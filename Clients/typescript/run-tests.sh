#!/bin/sh
# Builds the TypeScript client with Debian's tsc and runs its tests (node --test) against a real
# payrpc binary.
#
#   PAYRPC_BIN=/path/to/payrpc Clients/typescript/run-tests.sh [test files...]
#
# Needs Debian's node-typescript (tsc) and node-ajv, and Node.js 18+. The Node type definitions
# come from Debian's Node module folder when present, else from Debian's nodejs package,
# fetched with `apt-get download` and unpacked (dpkg -x) into .cache/ (git-ignored). Compiled
# output goes to dist/ (git-ignored); no npm registry is used.
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
command -v tsc >/dev/null 2>&1 || fail "tsc is missing (Debian package node-typescript)"
# Debian's Node module folder, where node-ajv put ajv (asked of dpkg, not assumed);
# PAYRPC_NODE_MODULES overrides it.
debian_modules=${PAYRPC_NODE_MODULES:-$(dpkg -L node-ajv 2>/dev/null | sed -n 's#/ajv/package\.json$##p' | head -n 1)}
[ -n "$debian_modules" ] && [ -f "$debian_modules/ajv/package.json" ] || fail "ajv is missing (Debian package node-ajv)"
# Debian's module folder: Node from elsewhere (nodesource) does not look there by itself.
export NODE_PATH="$debian_modules${NODE_PATH:+:$NODE_PATH}"

# Type definitions of Node for tsc, linked at .types/node (tsconfig.json's typeRoots).
types="$debian_modules/@types/node"
if [ ! -f "$types/index.d.ts" ]; then
    cache="$here/.cache/nodejs-types"
    types="$cache/root$debian_modules/@types/node"
    if [ ! -f "$types/index.d.ts" ]; then
        command -v apt-get >/dev/null 2>&1 && command -v apt-cache >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 \
            || fail "Node's type definitions are missing and apt-get/dpkg are not available to fetch Debian's nodejs package"
        # Debian's own nodejs (it ships @types/node), not another repository's.
        version=$(apt-cache madison nodejs | awk -F'|' '$3 !~ /nodesource/ { gsub(/ /, "", $2); print $2; exit }')
        [ -n "$version" ] || fail "apt-cache knows no Debian nodejs package to take @types/node from (run apt-get update)"
        echo "run-tests.sh: fetching @types/node from Debian's nodejs $version into $cache" >&2
        rm -rf "$cache"
        mkdir -p "$cache/root"
        (cd "$cache" && apt-get download "nodejs=$version" </dev/null >/dev/null) \
            || fail "apt-get download nodejs=$version failed"
        dpkg -x "$cache"/nodejs_*.deb "$cache/root"
        [ -f "$types/index.d.ts" ] || fail "Debian's nodejs $version holds no $debian_modules/@types/node"
    fi
fi
mkdir -p "$here/.types"
ln -sfn "$types" "$here/.types/node"

# The package can import itself by name (`import ... from "payrpc"`, as the README does).
mkdir -p "$here/node_modules"
ln -sfn .. "$here/node_modules/payrpc"

rm -rf "$here/dist"
tsc -p "$here"

cd "$here"
if [ "$#" -eq 0 ]; then
    set -- dist/test/*.test.js
fi
exec node --test "$@" </dev/null
