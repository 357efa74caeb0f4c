#!/usr/bin/env bash
# Regenerates access_guard.spv from access_guard.cl (tests/jit/test_access_guard.py), with
# the command and tools of tests/data/kernels/regenerate.sh (clang-15, llvm-spirv-15; -O2, so
# the indices are SSA values the executor's group guard can follow).
set -euo pipefail
cd "$(dirname "$0")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"${CLANG:-clang-15}" -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -emit-llvm-bc \
  -finclude-default-header -no-opaque-pointers -O2 access_guard.cl -o "$tmp/access_guard.bc"
"${LLVM_SPIRV:-llvm-spirv-15}" --spirv-max-version=1.2 "$tmp/access_guard.bc" -o access_guard.spv
echo "built access_guard.spv"
