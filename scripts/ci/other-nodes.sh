#!/usr/bin/env bash
# Node 22 and 24 for CI, beside the machine's Node 20: official binaries from the npm registry
# (the node-<os>-<arch> packages), installed into a scratch folder, never onto the machine.
#
#   scripts/ci/other-nodes.sh install DIR   installs them; prints one `bin` folder per version
#   scripts/ci/other-nodes.sh test DIR      runs the test suite (npm test's Jest) on each
#
# Each run is bounded (GOLEM_NODE_RUN_TIMEOUT seconds, default 900) so CI stays within its time.
set -euo pipefail
VERSIONS=(22.23.5 24.22.3)
cmd="${1:?usage: other-nodes.sh install|test DIR}"
dir="${2:?usage: other-nodes.sh install|test DIR}"
root="$(cd "$(dirname "$0")/../.." && pwd)"

bin_of() { echo "$dir/node_modules/node$1/bin"; }

case "$cmd" in
install)
  platform="$(node -p 'process.platform + "-" + process.arch')"
  mkdir -p "$dir"
  specs=()
  for version in "${VERSIONS[@]}"; do specs+=("node${version%%.*}@npm:node-$platform@$version"); done
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "${specs[@]}" >&2
  for version in "${VERSIONS[@]}"; do
    bin="$(bin_of "${version%%.*}")"
    actual="$("$bin/node" --version)"
    [ "$actual" = "v$version" ] || { echo "other-nodes: $bin/node is $actual, not v$version" >&2; exit 1; }
    echo "$bin"
  done
  ;;
test)
  for version in "${VERSIONS[@]}"; do
    bin="$(bin_of "${version%%.*}")"
    echo "== npm test on Node $("$bin/node" --version)" >&2
    # Node on PATH too, so processes the tests start (examples, the CLI) run on the same Node.
    (cd "$root" && PATH="$bin:$PATH" timeout "${GOLEM_NODE_RUN_TIMEOUT:-900}" \
      "$bin/node" node_modules/jest/bin/jest.js --ci)
  done
  ;;
*)
  echo "usage: other-nodes.sh install|test DIR" >&2
  exit 2
  ;;
esac
