#!/usr/bin/env bash
# Whether a change to kernel_templates/ left the machine code alone: every family's default
# configuration and a few others, in all four layouts and every alignment the family takes, are
# compiled with kernelc to cubins and disassembled with cuobjdump -sass; `write` keeps that as a
# baseline, `compare` builds the same set again and says which kernels' SASS differs. A
# configuration a family refuses in some layout (kernelc exit 2) is listed as refused, and the
# lists of refusals must match too. Needs no GPU.
#
#   bash tools/compare_sass.sh write   KERNELC DIR   # e.g. with the kernelc of main's build
#   bash tools/compare_sass.sh compare KERNELC DIR   # exit 0: identical; 1: a kernel differs
#
# CUOBJDUMP (default: cuobjdump on PATH, else /usr/local/cuda/bin/cuobjdump) disassembles; JOBS
# (default 2) kernels compile at a time; RETRIES (default 12) recompiles of a kernel that differs;
# ONLY (a regular expression, e.g. "wgmma|tf32x3") compares those families alone.
set -euo pipefail

usage() { echo "usage: $0 write|compare KERNELC DIR" >&2; exit 2; }
[[ $# -eq 3 ]] || usage
mode=$1 kernelc=$2 dir=$3
[[ "$mode" == write || "$mode" == compare ]] || usage
[[ -x "$kernelc" ]] || { echo "$0: $kernelc is not an executable kernelc" >&2; exit 2; }
cuobjdump=${CUOBJDUMP:-$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)}
[[ -x "$cuobjdump" ]] || { echo "$0: no cuobjdump at $cuobjdump (set CUOBJDUMP)" >&2; exit 2; }
jobs=${JOBS:-2}

# Each family's parameters as in its kernel names, default first; align values it takes last.
# "FAMILY ALIGNS PARAMS..." (PARAMS without the layout and align fields).
configs() {
  cat <<'EOF'
naive 1 tile32 tile16
coalesced 1 tile32 tile8
smem 1 tile32 tile16
reg1d 1 bm64_bn64_bk8_tm8 bm64_bn32_bk16_tm8
reg2d 1 bm128_bn128_bk8_tm8_tn8 bm64_bn64_bk16_tm4_tn4
vectorized 4,2,1 bm128_bn128_bk8_tm8_tn8 bm64_bn64_bk16_tm4_tn4 bm128_bn128_bk16_tm8_tn4
warptile 4,2,1 bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_splitk1 bm64_bn64_bk16_wm32_wn32_tm4_tn8_stages3_splitk16 bm64_bn64_bk16_wm32_wn32_tm4_tn8_stages2_splitk64 bm128_bn128_bk32_wm64_wn32_tm16_tn4_stages3_splitk1 bm64_bn128_bk32_wm16_wn64_tm8_tn4_stages3_splitk1_fragbuf2_order2 bm128_bn128_bk8_wm32_wn64_tm8_tn8_stages3_splitk1_regs2 bm64_bn128_bk16_wm16_wn128_tm4_tn16_stages2_splitk1_regs2
tf32x3 4,2,1 bm128_bn128_bk32_wm64_wn32_stages3_splitk1 bm64_bn64_bk16_wm32_wn32_stages4_splitk16 bm128_bn64_bk32_wm64_wn32_stages2_splitk128
wgmma 4,2,1 bm128_bn128_bk32_stages3_splitk1 bm64_bn64_bk16_stages4_splitk16 bm256_bn128_bk32_stages2_splitk1 bm192_bn64_bk16_stages3_splitk64
skinny 4,2,1 nt32_kg8_mt16_kc128_u2_splitk8 nt64_kg4_mt1_kc512_u4_splitk1 nt16_kg16_mt8_kc512_u8_splitk32
EOF
}

names() {
  configs | while read -r family aligns params; do
    [[ -z "${ONLY:-}" || "$family" =~ ^(${ONLY})$ ]] || continue
    for param in $params; do
      for layout in nn nt tn tt; do
        for align in ${aligns//,/ }; do
          echo "gemmtune_sgemm_${family}_${layout}_${param}_align${align}"
        done
      done
    done
  done
}

# Compiles one name into $1 and disassembles it; a refused name leaves NAME.refused.
build_one() {
  local out=$1 name=$2 status=0
  "$kernelc" --arch sm_90 --out "$out" -q "$name" > /dev/null 2> "$out/$name.log" || status=$?
  if [[ $status -eq 2 ]]; then
    : > "$out/$name.refused"
  elif [[ $status -ne 0 ]]; then
    echo "$0: kernelc failed on $name:" >&2
    cat "$out/$name.log" >&2
    return 1
  else
    "$cuobjdump" -sass "$out/$name.cubin" > "$out/$name.sass" || return 1
    rm "$out/$name.cubin"
  fi
  rm -f "$out/$name.log"
}
export -f build_one
export kernelc cuobjdump

build_all() {
  mkdir -p "$1"
  names | xargs -P "$jobs" -I{} bash -c 'build_one "$0" "$1"' "$1" {}
}

if [[ "$mode" == write ]]; then
  rm -rf "$dir"
  build_all "$dir"
  echo "$(ls "$dir" | grep -c '\.sass$') kernels disassembled, $(ls "$dir" | grep -c '\.refused$') refused, in $dir"
  exit 0
fi

[[ -d "$dir" ]] || { echo "$0: no baseline in $dir (run '$0 write' first)" >&2; exit 2; }
new=$(mktemp -d)
trap 'rm -rf "$new"' EXIT
build_all "$new"
# Every file (SASS text or refusal marker) of either set, compared byte for byte. ptxas does not
# always allocate registers alike for one input (seen on the H200's sm_90 for a vectorized
# configuration, with the same kernelc run after run): a kernel that differs is compiled again,
# up to RETRIES times (default 12), and counts as identical when one of them matches.
retries=${RETRIES:-12}
status=0 unsteady=0
# A kernel's "Function :" line is its mangled name, which a new template parameter changes in
# every kernel of the family without changing its code: the lines are compared without it.
same_code() { cmp -s <(grep -v 'Function :' "$1") <(grep -v 'Function :' "$2"); }
for file in $( (ls "$dir" | grep -E "^gemmtune_sgemm_(${ONLY:-[a-z0-9]+})_"; ls "$new") | sort -u); do
  [[ -f "$dir/$file" && -f "$new/$file" ]] && same_code "$dir/$file" "$new/$file" && continue
  matched=0
  if [[ "$file" == *.sass && -f "$dir/$file" ]]; then
    again=$(mktemp -d)
    for ((try = 1; try <= retries; ++try)); do
      build_one "$again" "${file%.sass}" && same_code "$dir/$file" "$again/$file" && { matched=$try; break; }
    done
    rm -rf "$again"
  fi
  if [[ $matched -gt 0 ]]; then
    echo "identical on compile $((matched + 1)): $file"
    unsteady=$((unsteady + 1))
  else
    echo "differs: $file"
    status=1
  fi
done
if [[ $status -eq 0 ]]; then
  echo "SASS identical: $(ls "$new" | grep -c '\.sass$') kernels ($unsteady after a recompile), $(ls "$new" | grep -c '\.refused$') refused alike"
else
  echo "SASS differs: see the kernels above"
fi
exit $status
