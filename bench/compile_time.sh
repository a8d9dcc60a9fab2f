#!/usr/bin/env bash
# Times how long one translation unit that loads a scenario, validates it and allocates takes to compile (the target:
# ≤ 20 s at -O2): examples/allocate_claims.cpp against the header-only engine (dra/dra.hpp), and
# examples/allocate_compiled.cpp against the optional compiled component (dra/compiled.hpp), plus the component's
# own source (src/compiled.cpp), which a program compiles once. Also: the umbrella header alone (what every file that
# includes dra/dra.hpp pays before any code is generated), and examples/select_devices.cpp, which loads and evaluates
# selectors through two room headers (dra/json.hpp, dra/cel.hpp) instead of the umbrella.
#
#   bench/compile_time.sh                      GCC (c++), -O2, 3 runs each
# Options: --cxx COMPILER (default c++), --flags "FLAGS" (default "-O2 -DNDEBUG"), --runs N (default 3).
# Prints the median wall time of each; exit status 1 when a compile fails.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cxx=c++
flags="-O2 -DNDEBUG"
runs=3
usage() { sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; }
while (($#)); do
  case $1 in
    --cxx) cxx=$2; shift 2 ;;
    --flags) flags=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    -h|--help) usage ;;
    *) usage ;;
  esac
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# What CMake passes for dra::dra on Debian 12 (its dependencies' headers are in /usr/include).
common=(-std=c++20 -I"$repo/include" -DSIMDJSON_THREADS_ENABLED=1 -pthread)

time_one() {  # label source: prints the median wall time of $runs compiles
  local label=$1 source=$2 times=()
  for ((i = 0; i < runs; i++)); do
    local start end
    start=$(date +%s%N)
    # shellcheck disable=SC2086
    "$cxx" "${common[@]}" $flags -c "$source" -o "$work/out.o"
    end=$(date +%s%N)
    times+=("$(((end - start) / 100000000))")  # tenths of a second
  done
  local median
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
  tenths() { printf '%d.%d' $(($1 / 10)) $(($1 % 10)); }
  local all=""
  for t in "${times[@]}"; do all+="$(tenths "$t") "; done
  printf '%-58s %6s s   (runs: %s)\n' "$label" "$(tenths "$median")" "$all"
}

echo "compiler: $("$cxx" --version | head -1); flags: $flags"
printf '#include <dra/dra.hpp>\nint main() {}\n' >"$work/umbrella_only.cpp"
time_one "header-only: dra/dra.hpp included, nothing used" "$work/umbrella_only.cpp"
time_one "header-only: examples/allocate_claims.cpp (dra/dra.hpp)" "$repo/examples/allocate_claims.cpp"
time_one "header-only: examples/select_devices.cpp (json + cel)" "$repo/examples/select_devices.cpp"
time_one "compiled component: examples/allocate_compiled.cpp" "$repo/examples/allocate_compiled.cpp"
time_one "the component itself, once: src/compiled.cpp" "$repo/src/compiled.cpp"
