#!/bin/sh
# Regenerates the Go client's generated code (generated/) from the OpenRPC document.
#
#   Clients/go/generate.sh [--schema <openrpc.json>] [--out <folder>]
#
# Defaults: --schema ../../Schemas/openrpc.json and --out generated, both relative to this
# script. Paths given are taken relative to the current directory. Runs from anywhere; needs
# only the go command (golang-go): the generator uses the standard library alone.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
schema="$here/../../Schemas/openrpc.json"
out="$here/generated"
while [ $# -gt 0 ]; do
    case "$1" in
        --schema) schema=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "generate.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
absolute() {
    case "$1" in
        /*) printf '%s\n' "$1" ;;
        *) printf '%s/%s\n' "$(pwd)" "$1" ;;
    esac
}
schema=$(absolute "$schema")
out=$(absolute "$out")
eval "$("$here/setup.sh")"
cd "$here"
exec go run ./cmd/payrpc-gen --schema "$schema" --out "$out"
