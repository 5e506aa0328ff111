#!/bin/sh
# Prepares the Go client for building without a module proxy, from the Debian sources of
# gojsonschema and its two dependencies (no network):
#
#   eval "$(Clients/go/setup.sh)"              # then build or test this module (-mod=vendor)
#   Clients/go/setup.sh --replace-in DIR       # also: make the module in DIR use this client
#
# It copies the sources (tests left out) into vendor/ (with vendor/modules.txt), for building
# this module with -mod=vendor, and into third_party/<module path>/ with a go.mod each, for a
# module that imports this one: a `replace` must point at a folder with a go.mod, and Debian's
# /usr/share/gocode folders of gojsonpointer and gojsonreference have none (and gojsonschema's
# requires testify, which a build with GOPROXY=off cannot load). Both folders are git-ignored;
# running it again rewrites them. Without arguments it prints the environment to build this
# module with. With --replace-in DIR it runs, in DIR:
#
#   go mod edit -replace github.com/payrpc/payrpc-go=<this folder> \
#       -replace github.com/xeipuuv/gojsonschema=<this folder>/third_party/github.com/xeipuuv/gojsonschema \
#       -replace github.com/xeipuuv/gojsonpointer=<...>/gojsonpointer -replace github.com/xeipuuv/gojsonreference=<...>/gojsonreference
#
# after which `GOFLAGS=-mod=mod GOPROXY=off go build` there works offline.
#
#   GOCODE   where the Debian Go sources are (default /usr/share/gocode/src)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
gocode=${GOCODE:-/usr/share/gocode/src}
vendor="$here/vendor"
third_party="$here/third_party"

importer=""
case "${1:-}" in
    "") ;;
    --replace-in)
        [ $# -eq 2 ] || { echo "setup.sh: --replace-in takes the folder of a Go module" >&2; exit 2; }
        importer=$(cd "$2" && pwd)
        [ -f "$importer/go.mod" ] || { echo "setup.sh: $importer has no go.mod (go mod init first)" >&2; exit 2; }
        ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
esac

# module path, version (as go.mod requires it), Debian package that ships it, the modules
# (of these three) it imports
modules='github.com/xeipuuv/gojsonpointer v0.0.0-20190905194746-02993c407bfb golang-github-xeipuuv-gojsonpointer-dev -
github.com/xeipuuv/gojsonreference v0.0.0-20180127040603-bd5ef7bd5415 golang-github-xeipuuv-gojsonreference-dev github.com/xeipuuv/gojsonpointer
github.com/xeipuuv/gojsonschema v1.2.0 golang-github-xeipuuv-gojsonschema-dev github.com/xeipuuv/gojsonpointer,github.com/xeipuuv/gojsonreference'

if ! command -v go >/dev/null 2>&1; then
    echo "setup.sh: the go command is missing: apt-get install golang-go" >&2
    exit 1
fi

# The version of a module of the table.
version_of() {
    printf '%s\n' "$modules" | awk -v path="$1" '$1 == path { print $2 }'
}

rm -rf "$vendor" "$third_party"
mkdir -p "$vendor" "$third_party"
: >"$vendor/modules.txt"
while read -r path version package requires; do
    if [ ! -d "$gocode/$path" ]; then
        echo "setup.sh: $gocode/$path is missing: apt-get install $package" >&2
        exit 1
    fi
    mkdir -p "$vendor/$path" "$third_party/$path"
    for file in "$gocode/$path"/*.go; do
        case "$file" in *_test.go) continue ;; esac
        cp "$file" "$vendor/$path/"
        cp "$file" "$third_party/$path/"
    done
    printf '# %s %s\n## explicit\n%s\n' "$path" "$version" "$path" >>"$vendor/modules.txt"
    {
        printf 'module %s\n\ngo 1.19\n' "$path"
        if [ "$requires" != "-" ]; then
            printf '\nrequire (\n'
            for required in $(printf '%s\n' "$requires" | tr ',' ' '); do
                printf '\t%s %s\n' "$required" "$(version_of "$required")"
            done
            printf ')\n'
        fi
    } >"$third_party/$path/go.mod"
done <<MODULES
$modules
MODULES

if [ -n "$importer" ]; then
    set -- -replace "github.com/payrpc/payrpc-go=$here"
    while read -r path _; do
        set -- "$@" -replace "$path=$third_party/$path"
    done <<MODULES
$modules
MODULES
    (cd "$importer" && go mod edit "$@")
    echo "setup.sh: $importer/go.mod now replaces github.com/payrpc/payrpc-go and its dependencies with local folders" >&2
    exit 0
fi

# Caches inside the folder (git-ignored), so a read-only HOME does not matter.
cat <<ENV
export GOFLAGS='-mod=vendor -buildvcs=false'
export GOPROXY=off
export GO111MODULE=on
export GOCACHE='$here/.cache/go-build'
export GOPATH='$here/.cache/gopath'
ENV
