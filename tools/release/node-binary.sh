#!/usr/bin/env bash
# Prints the path of a Node.js binary of exactly VERSION, installing the registry's `node` package
# (which ships the official binaries) into a cache folder outside the repository on first use.
#   tools/release/node-binary.sh 22.23.3   ->   /tmp/toolwright-node/22.23.3/node_modules/node/bin/node
# The folder lies outside the repository so that nothing there joins the workspace's dependency tree.
set -euo pipefail
version="${1:?usage: node-binary.sh <exact version, e.g. 22.23.3>}"
prefix="${TOOLWRIGHT_NODE_CACHE:-${TMPDIR:-/tmp}/toolwright-node}/$version"
binary="$prefix/node_modules/node/bin/node"
if ! [ -x "$binary" ] || [ "$("$binary" --version 2>/dev/null)" != "v$version" ]; then
  rm -rf "$prefix"
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node@$version" >&2
fi
actual="$("$binary" --version)"
if [ "$actual" != "v$version" ]; then
  echo "node-binary.sh: $binary reports $actual, not v$version" >&2
  exit 1
fi
echo "$binary"
