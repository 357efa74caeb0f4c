#!/usr/bin/env bash
# Regenerates every clc/*.spv fixture from its .cl source.
# Tools (Debian 12 packages): clang-15, llvm-spirv-15
#   apt-get install -y clang-15 llvm-spirv-15
# clang-15 defaults to opaque pointers, which llvm-spirv-15 cannot read, hence
# -no-opaque-pointers.  The test suite never runs this script; it only reads
# the committed .spv files.
set -euo pipefail
cd "$(dirname "$0")"
CLANG="${CLANG:-clang-15}"
LLVM_SPIRV="${LLVM_SPIRV:-llvm-spirv-15}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# build SRC OUT TRIPLE OPT
build() {
  local src="$1" out="$2" triple="$3" opt="$4"
  "$CLANG" -cc1 -triple "$triple" -cl-std=CL2.0 -emit-llvm-bc \
    -finclude-default-header -no-opaque-pointers "$opt" \
    "$src.cl" -o "$tmp/$out.bc"
  "$LLVM_SPIRV" --spirv-max-version=1.2 "$tmp/$out.bc" -o "$out.spv"
  echo "built $out.spv"
}

# Default: 64-bit SPIR, -O2.
for src in atomics constant_data control_flow conversions device_enqueue \
           generic_addrspace geometric_bitops half_double histogram image_ops \
           int_edge math_builtins matmul_tiled pipes printf reduction_local \
           relational_select structs vector_add vector_types work_items \
           workgroup_subgroup; do
  build "$src" "$src" spir64-unknown-unknown -O2
done

# Unoptimised variants (allocas, many blocks, unstructured control flow).
for src in control_flow structs matmul_tiled; do
  build "$src" "$src.O0" spir64-unknown-unknown -O0
done

# Size/partially optimised variants: llvm-spirv-15 lays some of these out with
# blocks before their dominators / uses before definitions in binary order
# (spirv-val rejects them; they are tolerance fixtures).
for src in constant_data reduction_local work_items; do
  build "$src" "$src.Os" spir64-unknown-unknown -Os
done
build histogram histogram.O1 spir64-unknown-unknown -O1

# 32-bit SPIR (Addressing Physical32, size_t = uint).
for src in vector_add int_edge reduction_local; do
  build "$src" "$src.spir32" spir-unknown-unknown -O2
done
