#!/usr/bin/env bash
# Times whole-process `dra allocate` on the cluster-scale scenarios (written by
# bench/cluster_scenarios.cpp) and checks how many claims each allocates; and whole-process
# `dra summary` on the ingest benchmark's 100 MB of slices (slices-1400: the target is 500 MB/s),
# checking the pools and devices it counts.
#
#   bench/cluster_scale.sh                      build the release dra (cmake --preset release), time it
#   bench/cluster_scale.sh --dra PATH           time that dra binary instead
#   bench/cluster_scale.sh --compare OLD NEW    time two dra binaries on the same files, interleaved,
#                                               and check that their results are the same
# Options: --runs N (default 5), --only NAME (a scenario, e.g. mig-64; repeatable),
#          --scenarios DIR (keep the generated files there instead of a temporary directory),
#          --policy P (first_fit, sorted, ...: passed to dra allocate; other policies than first_fit must
#          allocate at least first fit's count), --score kube (passed to dra allocate: kube-scheduler's node
#          scoring; its counts are printed, not checked, as spreading pods may place fewer).
# Columns: wall-clock best and median, CPU median, peak RSS (MiB, median) per binary.
# Exit status: 0 when every count is as expected (and, with --compare, both results agree), 1 otherwise.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=5
dra=""
compare_old=""
compare_new=""
scenario_dir=""
policy=first_fit
score=""
only=()

usage() { sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; }
while (($#)); do
  case $1 in
    --dra) dra=$2; shift 2 ;;
    --compare) compare_old=$2; compare_new=$3; shift 3 ;;
    --runs) runs=$2; shift 2 ;;
    --only) only+=("$2"); shift 2 ;;
    --scenarios) scenario_dir=$2; shift 2 ;;
    --policy) policy=$2; shift 2 ;;
    --score) score=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "cluster_scale.sh: unknown argument $1" >&2; usage ;;
  esac
done

# Scenario, the dra command timed, the whole-process target (ms), and the counts its
# shape implies: allocated, unschedulable, error (for summary: slices, pools, devices).
#  gpus-500x8: 4,000 one-GPU claims on 500 x 8 GPUs: every GPU taken.
#  mig-64: 480 whole GPUs + 120 MIG partitions on 512 A100s: the last 12 whole-GPU pods fit nowhere.
#  gpus-500x8-nodes, mig-64-nodes: the same with nodes and pods as real clusters carry them (labels, a GPU
#    taint, allocatable; requests, a node selector, the toleration): the node filters may cost 10 % at most.
#  gpus-5000x8: gpus-500x8 at ten times the size (40,000 pods): within 12x its time (the ratio is printed).
#  mig-1000: mig-64's cycle on 1,000 nodes (9,000 pods on 8,000 GPUs: every one fits).
#  nodes-5000: 5,000 nodes, 40,000 bound pods, 1,000 pending pods with node selectors and tolerations, no claims
#    (the pods' own placements are not counted here: every pending pod fits).
#  preempt-5000: nodes-5000 with its nodes full of priority-100 pods; the 1,000 pending pods (priority 10,000) fit
#    only by preemption (docs/scheduling.md, "Preemption"): under 2 s.
#  partitionable-100: 2,000 init claims take one two-counter device per pool, then 2,000 pods
#    take the two single-counter devices left in one pool each.
#  consumable-100: 2,000 pods x 2 x 40Gi on 2,000 pools of two 80Gi shareable devices; the second one
#    also gives out its whole `counters` capacity (no request policy) to its first allocation, so a
#    pool takes three requests: room for 3,000 pods.
#  hopeless: six claims with no solution on one node, one per family of hopeless searches (counts, a
#    matchAttribute group, distinct values, and one that only interchangeable devices end).
#  gang-512x8: a 64-pod gang (topology key rack) on 512 nodes x 8 GPUs in 8 racks, half of them busy: the gang
#    goes to the first free rack, each pod a whole node (target: placed in under 100 ms of the run).
#  gang-hopeless: the same, one GPU short in every free rack: the gang is not placed and its claims are rolled
#    back (no results; target: answered in under 50 ms of search).
#  slices-1400: 101.6 MB of ResourceSlices (1,400 nodes of 8 A100s with every MIG placement);
#    500 MB/s is 203 ms.
#  gpus-5000x8 (summary): reading gpus-5000x8's 16 MB.
#  slices-1400.yaml, gpus-5000x8.yaml: the same objects as `kubectl get -o yaml` prints them (bench/to_yaml.cpp),
#    read by `summary`: YAML is streamed into the JSON reader, within 10 times JSON's time and 3 times its memory
#    (compare the peak MiB with the JSON row's); a 5,000-node cluster in well under 2 GB.
scenarios=(
  "gpus-500x8 allocate 150 4000 0 0"
  "gpus-500x8-nodes allocate 165 4000 0 0"
  "gpus-5000x8 allocate 1800 40000 0 0"
  "mig-64 allocate 100 588 12 0"
  "mig-64-nodes allocate 110 588 12 0"
  "mig-1000 allocate 1500 9000 0 0"
  "nodes-5000 allocate 1000 0 0 0"
  "preempt-5000 allocate 2000 0 0 0"
  "partitionable-100 allocate 500 4000 0 0"
  "consumable-100 allocate 300 2000 0 0"
  "hopeless allocate 50 0 6 0"
  "gang-512x8 allocate 250 64 0 0"
  "gang-hopeless allocate 250 0 0 0"
  "slices-1400 summary 203 4200 1400 168000"
  "slices-1400.yaml summary 2030 4200 1400 168000"
  "gpus-5000x8 summary 300 5000 5000 40000"
  "gpus-5000x8.yaml summary 3000 5000 5000 40000"
)

workdir=$(mktemp -d "${TMPDIR:-/tmp}/cluster-scale.XXXXXX")
trap 'rm -rf "$workdir"' EXIT
[[ -n $scenario_dir ]] || scenario_dir=$workdir/scenarios

# The generator: plain C++20, compiled here so that no benchmark build is needed.
"${CXX:-c++}" -std=c++20 -O2 -o "$workdir/cluster_scenarios" "$repo/bench/cluster_scenarios.cpp"
"$workdir/cluster_scenarios" "$scenario_dir"
# The YAML twins, written by dra's own YAML writer (the one library the generator needs).
# shellcheck disable=SC2046
"${CXX:-c++}" -std=c++20 -O2 -I"$repo/include" -o "$workdir/to_yaml" "$repo/bench/to_yaml.cpp" \
  $(pkg-config --cflags --libs yaml-0.1 simdjson)
for name in slices-1400 gpus-5000x8; do "$workdir/to_yaml" "$scenario_dir/$name.json" "$scenario_dir/$name.yaml"; done

if [[ -n $compare_old ]]; then
  binaries=("$compare_old" "$compare_new")
elif [[ -n $dra ]]; then
  binaries=("$dra")
else
  (cd "$repo" && cmake --preset release >/dev/null && cmake --build --preset release >/dev/null)
  binaries=("$repo/build/release/examples/dra")
fi
for b in "${binaries[@]}"; do
  [[ -x $b ]] || { echo "cluster_scale.sh: $b is not an executable" >&2; exit 1; }
done

selected() {
  ((${#only[@]} == 0)) && return 0
  local o
  for o in "${only[@]}"; do [[ $o == "$1" ]] && return 0; done
  return 1
}

# The options a command is run with.
options() { [[ $1 == allocate ]] && echo "--output json --policy $policy${score:+ --score $score}" || echo "--output json"; }

# One timed run: prints "wall_ms cpu_ms peak_mib" (cpu = user + system, peak RSS, from /usr/bin/time).
time_once() {
  local binary=$1 command=$2 file=$3 start end status
  start=$EPOCHREALTIME
  status=0
  # shellcheck disable=SC2046
  /usr/bin/time -f '%U %S %M' -o "$workdir/cpu" "$binary" "$command" "$file" $(options "$command") >/dev/null 2>"$workdir/stderr" || status=$?
  end=$EPOCHREALTIME
  if ((status != 0 && status != 3)); then
    echo "cluster_scale.sh: $binary $command $file exited $status:" >&2
    grep -v '^Command exited' "$workdir/stderr" | head -5 >&2
    return 1
  fi
  # GNU time writes "Command exited with non-zero status 3" before its figures: take the last line.
  tail -n 1 "$workdir/cpu" | awk -v s="$start" -v e="$end" '{ printf "%.1f %.0f %.0f\n", (e - s) * 1000, ($1 + $2) * 1000, $3 / 1024 }'
}

# "best median cpu_median peak_median" of a file of "wall_ms cpu_ms peak_mib" lines (POSIX awk, no gawk needed).
median_awk='{ v[NR] = $1 } END { m = int((NR + 1) / 2); printf "%.1f", (NR % 2 ? v[m] : (v[m] + v[m + 1]) / 2) }'
summarize() {
  local best median cpu peak
  best=$(sort -n -k1,1 "$1" | head -1 | cut -d' ' -f1)
  median=$(cut -d' ' -f1 "$1" | sort -n | awk "$median_awk")
  cpu=$(cut -d' ' -f2 "$1" | sort -n | awk "$median_awk")
  peak=$(cut -d' ' -f3 "$1" | sort -n | awk "$median_awk")
  echo "$best $median ${cpu%.*} ${peak%.*}"
}

# "allocated unschedulable error" of one `allocate` run's JSON output ($2), or "slices pools
# devices" of a `summary` run's.
counts() {
  if [[ $1 == summary ]]; then
    jq -r '[.objects.ResourceSlice, (.pools | length), .devices] | @tsv' "$2" | tr '\t' ' '
    return
  fi
  jq -r '[([.results[] | select(has("allocation"))] | length),
          ([.results[] | select(has("unschedulable"))] | length),
          ([.results[] | select(has("error"))] | length)] | @tsv' "$2" | tr '\t' ' '
}

# The results without explanations and share IDs, keys sorted: what two binaries must agree on.
normalized() {
  if [[ $1 == summary ]]; then
    jq -S . "$2"
    return
  fi
  jq -S 'del(.results[].explanation) | walk(if type == "object" then del(.shareID) else . end)' "$2"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)   cores: $(nproc)   runs: $runs"
for b in "${binaries[@]}"; do echo "dra: $b"; done
echo
if ((${#binaries[@]} == 1)); then
  printf '%-18s %9s %9s %9s %8s %9s  %-7s %s\n' scenario "best ms" "median ms" "cpu ms" "peak MiB" "target" "" "allocated/unschedulable/error (expected)"
else
  printf '%-18s %10s %10s %9s %10s %10s %9s %8s %9s  %s\n' scenario "old best" "old median" "old MiB" "new best" "new median" "new MiB" speedup target "allocated/unschedulable/error (expected)"
fi

# Whether the counts a run gave ($2) are what the scenario implies ($3): exactly, under first fit; for another
# policy, at least first fit's allocations with the same errors (it may place more than first fit, never fewer).
counts_ok() {
  [[ $2 == "$3" ]] && return 0
  [[ $1 == allocate && -n $score ]] && return 0
  [[ $1 == allocate && $policy != first_fit ]] || return 1
  local got want
  read -r -a got <<<"$2"
  read -r -a want <<<"$3"
  ((got[0] >= want[0] && got[2] == want[2]))
}

declare -A medians
failed=0
for entry in "${scenarios[@]}"; do
  read -r name command target want_allocated want_unschedulable want_error <<<"$entry"
  selected "$name" || continue
  file=$scenario_dir/$name
  [[ $name == *.yaml ]] || file=$file.json
  expected="$want_allocated $want_unschedulable $want_error"
  verdicts=()
  for i in "${!binaries[@]}"; do
    status=0
    # shellcheck disable=SC2046
    "${binaries[$i]}" "$command" "$file" $(options "$command") >"$workdir/out-$i.json" 2>"$workdir/stderr" || status=$?
    if ((status != 0 && status != 3)); then
      echo "cluster_scale.sh: ${binaries[$i]} $command $file exited $status:" >&2
      head -5 "$workdir/stderr" >&2
      failed=1
      continue 2
    fi
    got=$(counts "$command" "$workdir/out-$i.json")
    verdict="${got// //}"
    if ! counts_ok "$command" "$got" "$expected"; then
      verdict+=" WRONG, expected ${expected// //}"
      failed=1
    fi
    verdicts+=("$verdict")
  done
  if ((${#binaries[@]} == 2)) && ! cmp -s <(normalized "$command" "$workdir/out-0.json") <(normalized "$command" "$workdir/out-1.json"); then
    verdicts+=("RESULTS DIFFER")
    failed=1
  fi
  : >"$workdir/times-0"
  : >"$workdir/times-1"
  for ((r = 0; r < runs; ++r)); do
    for i in "${!binaries[@]}"; do
      time_once "${binaries[$i]}" "$command" "$file" >>"$workdir/times-$i" || { failed=1; continue 3; }
    done
  done
  read -r best0 median0 cpu0 peak0 < <(summarize "$workdir/times-0")
  medians[$name/$command]=$median0
  if ((${#binaries[@]} == 1)); then
    mark=$(awk -v m="$median0" -v t="$target" 'BEGIN { print (m <= t ? "ok" : "over") }')
    printf '%-18s %9s %9s %9s %8s %9s  %-7s %s\n' "$name" "$best0" "$median0" "$cpu0" "$peak0" "≤$target" "$mark" "${verdicts[*]} (${expected// //})"
  else
    read -r best1 median1 _ peak1 < <(summarize "$workdir/times-1")
    medians[$name/$command]=$median1
    speedup=$(awk -v a="$median0" -v b="$median1" 'BEGIN { printf "x%.2f", (b > 0 ? a / b : 0) }')
    printf '%-18s %10s %10s %9s %10s %10s %9s %8s %9s  %s\n' "$name" "$best0" "$median0" "$peak0" "$best1" "$median1" "$peak1" "$speedup" "≤$target" "${verdicts[*]} (${expected// //})"
  fi
done
# The growth target: ten times the cluster within twelve times the time (the newer binary's medians).
if [[ -n ${medians[gpus-500x8/allocate]:-} && -n ${medians[gpus-5000x8/allocate]:-} ]]; then
  echo
  awk -v small="${medians[gpus-500x8/allocate]}" -v large="${medians[gpus-5000x8/allocate]}" 'BEGIN {
    ratio = large / small
    printf "gpus-5000x8 / gpus-500x8: x%.1f (target <= x12) %s\n", ratio, (ratio <= 12 ? "ok" : "over") }'
fi
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$failed"
