#!/bin/sh
# Builds the TypeScript client into dist/ (dist/src: the package; dist/test: its tests) with
# Debian's tsc, without any npm registry:
#
#   Clients/typescript/build.sh
#
# Needs Debian's node-typescript (tsc). Node's type definitions come from Debian's Node module
# folder when present, else from Debian's nodejs package, fetched with `apt-get download` and
# unpacked (dpkg -x) into .cache/; they are linked at .types/node (tsconfig.json's typeRoots).
# dist/, .cache/ and .types/ are git-ignored. `npm pack` and `npm install <this folder>` run it
# (the package's prepare script).
set -eu
here=$(cd "$(dirname "$0")" && pwd)

fail() {
    echo "build.sh: $*" >&2
    exit 2
}

command -v tsc >/dev/null 2>&1 || fail "tsc is missing (Debian package node-typescript)"
# Debian's Node module folder, where node-typescript put tsc's package (asked of dpkg, not
# assumed); PAYRPC_NODE_MODULES overrides it.
debian_modules=${PAYRPC_NODE_MODULES:-$(dpkg -L node-typescript 2>/dev/null | sed -n 's#/typescript/package\.json$##p' | head -n 1)}
debian_modules=${debian_modules:-/usr/share/nodejs}

# Type definitions of Node for tsc.
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
        echo "build.sh: fetching @types/node from Debian's nodejs $version into $cache" >&2
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

rm -rf "$here/dist"
tsc -p "$here"
