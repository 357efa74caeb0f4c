#!/usr/bin/env bash
# Regenerates work_item_loops.spv from work_item_loops.cl (tests/jit/test_work_item_loops.py),
# with the command and tools of tests/data/guard/regenerate.sh (clang-15, llvm-spirv-15; -O2).
set -euo pipefail
cd "$(dirname "$0")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"${CLANG:-clang-15}" -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -emit-llvm-bc \
  -finclude-default-header -no-opaque-pointers -O2 work_item_loops.cl -o "$tmp/work_item_loops.bc"
"${LLVM_SPIRV:-llvm-spirv-15}" --spirv-max-version=1.2 "$tmp/work_item_loops.bc" -o work_item_loops.spv
echo "built work_item_loops.spv"
