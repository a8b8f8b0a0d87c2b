#!/usr/bin/env bash
# Node 22 and 24 for CI, beside the machine's Node 20: official binaries from the npm registry
# (the node-<os>-<arch> packages), installed into a scratch folder, never onto the machine.
#
#   scripts/ci/other-nodes.sh install DIR   installs them, and builds better-sqlite3's addon for
#                                           each one's ABI into DIR; prints one `bin` folder each
#   scripts/ci/other-nodes.sh test DIR      runs the test suite (npm test's Jest) on each
#   scripts/ci/other-nodes.sh paths DIR     prints their `node` binaries, `:`-separated (the form
#                                           GOLEM_CONSUMER_NODES takes: `npm run test:consumer`)
#
# better-sqlite3 is the one native addon tied to Node's ABI (`npm ci` builds it for Node 20). Its
# copies for 22 and 24 are compiled from the installed package's own sources with the headers the
# node-<os>-<arch> package ships (no download), and reach the tests through a preload
# (native-abi.js) that redirects only loads of that addon; node_modules is never changed, so
# Node 20 keeps working throughout. DIR is a cache: a second `install` reuses what is there.
# Each test run is bounded (GOLEM_NODE_RUN_TIMEOUT seconds, default 900) so CI stays in its time.
set -euo pipefail
VERSIONS=(22.23.5 24.22.3)
cmd="${1:?usage: other-nodes.sh install|test|paths DIR}"
dir="${2:?usage: other-nodes.sh install|test|paths DIR}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="$(mkdir -p "$dir" && cd "$dir" && pwd)"
sqlite_version="$(node -p 'require(process.argv[1]).version' "$root/node_modules/better-sqlite3/package.json")"
native="$dir/native/better-sqlite3-$sqlite_version"

home_of() { echo "$dir/node_modules/node$1"; }
abi_of() { "$(home_of "$1")/bin/node" -p process.versions.modules; }

# build_addon MAJOR: compiles better_sqlite3.node for that Node into $native (log in DIR).
build_addon() {
  local home work gyp out
  home="$(home_of "$1")"
  out="$native/better_sqlite3-abi$(abi_of "$1").node"
  [ -f "$out" ] && return 0
  work="$dir/build/node$1"
  gyp="$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js"
  rm -rf "$work" && mkdir -p "$work" "$native"
  cp -r "$root/node_modules/better-sqlite3/"{binding.gyp,deps,src,package.json} "$work/"
  (cd "$work" && PATH="$home/bin:$PATH" "$home/bin/node" "$gyp" rebuild --release \
    --nodedir="$home" >"$dir/build-node$1.log" 2>&1) ||
    { tail -n 30 "$dir/build-node$1.log" >&2; echo "other-nodes: building better-sqlite3 for Node $1 failed" >&2; return 1; }
  cp "$work/build/Release/better_sqlite3.node" "$out.tmp" && mv "$out.tmp" "$out"
  rm -rf "$work"
}

case "$cmd" in
install)
  platform="$(node -p 'process.platform + "-" + process.arch')"
  specs=()
  for version in "${VERSIONS[@]}"; do
    bin="$(home_of "${version%%.*}")/bin"
    [ "$("$bin/node" --version 2>/dev/null)" = "v$version" ] ||
      specs+=("node${version%%.*}@npm:node-$platform@$version")
  done
  if [ "${#specs[@]}" -gt 0 ]; then
    # Keep what is cached: install every version together (npm prunes what the command omits).
    specs=()
    for version in "${VERSIONS[@]}"; do specs+=("node${version%%.*}@npm:node-$platform@$version"); done
    npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "${specs[@]}" >&2
  fi
  pids=()
  for version in "${VERSIONS[@]}"; do
    bin="$(home_of "${version%%.*}")/bin"
    actual="$("$bin/node" --version)"
    [ "$actual" = "v$version" ] || { echo "other-nodes: $bin/node is $actual, not v$version" >&2; exit 1; }
    build_addon "${version%%.*}" &
    pids+=("$!")
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  for version in "${VERSIONS[@]}"; do echo "$(home_of "${version%%.*}")/bin"; done
  ;;
test)
  for version in "${VERSIONS[@]}"; do
    bin="$(home_of "${version%%.*}")/bin"
    addon="$native/better_sqlite3-abi$(abi_of "${version%%.*}").node"
    [ -f "$addon" ] || { echo "other-nodes: no $addon; run \`other-nodes.sh install $dir\` first" >&2; exit 1; }
    echo "== npm test on Node $("$bin/node" --version)" >&2
    # Node on PATH too, so processes the tests start (examples, the CLI) run on the same Node; the
    # preload travels to them (and to Jest's workers) through NODE_OPTIONS.
    (cd "$root" && PATH="$bin:$PATH" GOLEM_NATIVE_DIR="$native" \
      NODE_OPTIONS="--require \"$root/scripts/ci/native-abi.js\"${NODE_OPTIONS:+ $NODE_OPTIONS}" \
      timeout "${GOLEM_NODE_RUN_TIMEOUT:-900}" "$bin/node" node_modules/jest/bin/jest.js --ci)
  done
  ;;
paths)
  paths=()
  for version in "${VERSIONS[@]}"; do
    node="$(home_of "${version%%.*}")/bin/node"
    [ "$("$node" --version 2>/dev/null)" = "v$version" ] ||
      { echo "other-nodes: no Node $version in $dir; run \`other-nodes.sh install $dir\` first" >&2; exit 1; }
    paths+=("$node")
  done
  (IFS=:; echo "${paths[*]}")
  ;;
*)
  echo "usage: other-nodes.sh install|test|paths DIR" >&2
  exit 2
  ;;
esac
