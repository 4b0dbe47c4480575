#!/bin/sh
# run.sh - the y2038 inode timestamp lab on a board: its facts, the tests,
# the CPU probes and the passes of `scripts/lab bench` within a time budget.
#
# Part of a bundle made by `scripts/lab bundle <abi>` (bin/, tests/,
# manifest.txt, headline.txt beside this script).  Needs a POSIX shell and
# the usual tools, busybox being enough: awk cat cp cut date find gzip mkdir
# mv readlink rm sed tar tr uname wc.  Writes <out>/<name>/ and <out>/<name>.tar.gz, where
# <name> = y2038-results-<abi>-<board>-<UTC date>, and prints
# "results: <tarball>" last; `scripts/lab import` reads the tarball.
#
# usage: run.sh [--quick | --full | --smoke] [--minutes M] [--board NAME]
#               [--out DIR] [--emulator CMD] [--no-tests]
#   --quick      (default) tests without the slow ones; benchmarks: the passes
#                of `scripts/lab bench` (plan.txt), the paired one in ten
#                processes or more, one per link order and placement
#   --full       every test; benchmarks: --y2038_full, the full repetitions
#   --smoke      a check that the bundle works, not a measurement: tests with
#                fewer random inputs, a few benchmarks of each pass, short runs
#   --minutes M  the whole run's time budget (default 10, --full 60, --smoke
#                0.5): spread over the passes and the paired processes; what
#                was cut to fit is said in the output
#   --board NAME the board's name in the results (default: the device-tree
#                model, else the DMI product name, else the host name)
#   --out DIR    where the results go (default: the current folder)
#   --emulator CMD  run every program through CMD (e.g. qemu-arm): a smoke
#                test on another machine; the results are marked emulated
#                and their timings are not the board's
#   --no-tests   skip the tests
set -eu

here=$(cd "$(dirname "$0")" && pwd)
bin=$here/bin
mode=quick board='' out=$PWD emulator='' tests=yes minutes=''

die() {
	printf 'run.sh: error: %s\n' "$*" >&2
	exit 1
}

usage() {
	sed -n '12,29p' "$here/run.sh" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
	case $1 in
	--quick) mode=quick ;;
	--full) mode=full ;;
	--smoke) mode=smoke ;;
	--no-tests) tests=no ;;
	--board | --out | --emulator | --minutes)
		[ $# -ge 2 ] || die "$1 needs a value"
		case $1 in
		--minutes) minutes=$2 ;;
		--board) board=$2 ;;
		--out) out=$2 ;;
		--emulator) emulator=$2 ;;
		esac
		shift
		;;
	-h | --help)
		usage
		exit 0
		;;
	*)
		usage >&2
		die "unknown option '$1'"
		;;
	esac
	shift
done

if [ -z "$minutes" ]; then
	case $mode in quick) minutes=10 ;; full) minutes=60 ;; smoke) minutes=0.5 ;; esac
fi
case $minutes in
'' | *[!0-9.]* | .* | *. | *.*.*) die "--minutes '$minutes': expected a positive number of minutes, e.g. 10 or 0.5" ;;
esac
budget=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 + 0.5 }')
[ "$budget" -gt 0 ] || die "--minutes '$minutes': expected a positive number of minutes, e.g. 10 or 0.5"
[ -r "$here/manifest.txt" ] || die "$here/manifest.txt missing: run.sh belongs to an unpacked bundle"
abi=$(sed -n 's/^abi: //p' "$here/manifest.txt")
[ -n "$abi" ] || die "$here/manifest.txt names no ABI"
[ -d "$out" ] || die "--out $out: no such folder"
out=$(cd "$out" && pwd)
emu=$emulator

# The board's name: [a-z0-9._-], at most 40 characters.
sanitize() {
	# shellcheck disable=SC2018,SC2019 # ASCII only, on purpose (busybox tr)
	printf '%s' "$1" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9._-' '-' | sed 's/--*/-/g; s/^-//; s/-$//' | cut -c1-40
}
first_readable() {
	for f in "$@"; do
		if [ -r "$f" ] && [ -n "$(tr -d '\000' <"$f" 2>/dev/null)" ]; then
			tr -d '\000' <"$f"
			return 0
		fi
	done
	return 1
}
machine=$(uname -m)
if [ -z "$board" ]; then
	if [ -n "$emulator" ]; then
		board=qemu-user
	else
		board=$(first_readable /sys/firmware/devicetree/base/model /proc/device-tree/model \
			/sys/class/dmi/id/product_name) || board=$(uname -n)
	fi
fi
board=$(sanitize "$board")
[ -n "$board" ] || board=unknown

# Emulated: by request (--emulator), or when the kernel is of another
# architecture than the bundle (binfmt_misc running the binaries in qemu).
emulated=no why=''
if [ -n "$emulator" ]; then
	emulated=yes why="run with --emulator '$emulator'"
else
	case $abi:$machine in
	armhf:arm* | armhf:aarch64 | aarch64:aarch64 | aarch64:arm64 | riscv64:riscv64 | i386:i?86 | i386:x86_64) ;;
	*) emulated=yes why="the kernel is $machine, the bundle $abi: its programs ran through an emulator" ;;
	esac
fi

stamp=$(date -u +%Y%m%dT%H%M%SZ)
name=y2038-results-$abi-$board-$stamp
res=$out/$name
mkdir -p "$res/facts" "$res/tests" "$res/bench"
cp "$here/manifest.txt" "$here/headline.txt" "$res/"

log() {
	printf 'run.sh: %s\n' "$*" >&2
	printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >>"$res/run.log"
}
# note KEY VALUE: one "key: value" line of run.txt.
note() {
	printf '%s: %s\n' "$1" "$2" >>"$res/run.txt"
}
t_start=$(date +%s)
deadline=$((t_start + budget))
note mode "$mode"
note minutes "$minutes"
note board "$board"
note abi "$abi"
note started "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
note emulated "$emulated"
[ -z "$why" ] || note emulated_why "$why"
note emulator "${emulator:-none}"
note shell "$(readlink /proc/$$/exe 2>/dev/null || echo unknown)"
log "$name: mode $mode, budget $minutes min, board $board, ABI $abi${emulator:+, emulator $emulator}"
[ "$emulated" = no ] || log "EMULATED ($why): no figure of this run is a board figure"

# --- facts ------------------------------------------------------------------
# grab PATH...: copy each readable file to facts/PATH; list the others.
grab() {
	for f in "$@"; do
		if [ -r "$f" ] && [ -f "$f" ]; then
			mkdir -p "$res/facts$(dirname "$f")"
			cat "$f" >"$res/facts$f" 2>/dev/null || {
				rm -f "$res/facts$f"
				echo "$f" >>"$res/facts/unreadable.txt"
			}
		else
			echo "$f" >>"$res/facts/unreadable.txt"
		fi
	done
}
: >"$res/facts/unreadable.txt"
: >"$res/tests.txt"
uname -a >"$res/facts/uname-a.txt"
printf 'sysname: %s\nnodename: %s\nrelease: %s\nversion: %s\nmachine: %s\n' "$(uname -s)" "$(uname -n)" \
	"$(uname -r)" "$(uname -v)" "$machine" >"$res/facts/uname.txt"
grab /proc/cpuinfo /proc/meminfo /proc/version /proc/cmdline /proc/loadavg /etc/os-release \
	/sys/devices/system/cpu/online /sys/devices/system/cpu/present /sys/devices/system/cpu/possible \
	/sys/firmware/devicetree/base/model /sys/firmware/devicetree/base/compatible \
	/sys/class/dmi/id/sys_vendor /sys/class/dmi/id/product_name /sys/class/dmi/id/board_name
for cpu in /sys/devices/system/cpu/cpu[0-9]*; do
	[ -d "$cpu" ] || continue
	for f in cpufreq/cpuinfo_min_freq cpufreq/cpuinfo_max_freq cpufreq/scaling_min_freq \
		cpufreq/scaling_max_freq cpufreq/scaling_cur_freq cpufreq/scaling_governor \
		cpufreq/scaling_driver cpu_capacity topology/cluster_id topology/core_id \
		topology/physical_package_id regs/identification/midr_el1; do
		[ -e "$cpu/$f" ] && grab "$cpu/$f"
	done
	for idx in "$cpu"/cache/index[0-9]*; do
		[ -d "$idx" ] || continue
		for f in level type size ways_of_associativity coherency_line_size number_of_sets shared_cpu_list; do
			[ -e "$idx/$f" ] && grab "$idx/$f"
		done
	done
done
# /proc/slabinfo: its two header lines and the inode caches.
if [ -r /proc/slabinfo ]; then
	awk 'NR <= 2 || $1 ~ /inode/' /proc/slabinfo >"$res/facts/slabinfo-inode.txt" ||
		echo /proc/slabinfo >>"$res/facts/unreadable.txt"
else
	echo /proc/slabinfo >>"$res/facts/unreadable.txt"
fi
# The kernel configuration, where the kernel exposes or installs it.
if [ -r /proc/config.gz ] && gzip -dc /proc/config.gz >"$res/facts/kernel-config" 2>/dev/null; then
	note kernel_config /proc/config.gz
elif [ -r "/boot/config-$(uname -r)" ] && cat "/boot/config-$(uname -r)" >"$res/facts/kernel-config"; then
	note kernel_config "/boot/config-$(uname -r)"
else
	rm -f "$res/facts/kernel-config"
	note kernel_config "not readable (no /proc/config.gz, no /boot/config-$(uname -r))"
fi
# The running kernel's BTF: struct inode as this kernel really lays it out.
if [ -r /sys/kernel/btf/vmlinux ] && cat /sys/kernel/btf/vmlinux >"$res/facts/btf-vmlinux" 2>/dev/null; then
	note btf /sys/kernel/btf/vmlinux
else
	rm -f "$res/facts/btf-vmlinux"
	note btf "not available (/sys/kernel/btf/vmlinux absent or unreadable: CONFIG_DEBUG_INFO_BTF off?)"
fi
note loadavg_before "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
log "facts: $(find "$res/facts" -type f | wc -l) files, $(wc -l <"$res/facts/unreadable.txt") not readable"

# --- tests ------------------------------------------------------------------
# tests/list: "name<TAB>labels<TAB>will_fail<TAB>skip_rc<TAB>executable [arg]...",
# written by the bundle from CTest's own list (only tests whose verdict is
# their exit status).  Smoke mode draws fewer random inputs.
run_tests() {
	tab=$(printf '\t')
	pass=0 fail=0 skip=0
	if [ "$mode" = smoke ]; then
		Y2038_PROPERTY_INPUTS=100000 Y2038_TORN_WRITES=65536
		export Y2038_PROPERTY_INPUTS Y2038_TORN_WRITES
		note tests_env "Y2038_PROPERTY_INPUTS=100000 Y2038_TORN_WRITES=65536 (smoke)"
	fi
	while IFS=$tab read -r tname labels will_fail skip_rc cmd; do
		case $tname in '' | '#'*) continue ;; esac
		case ",$labels," in
		*,slow,*)
			if [ "$mode" != full ]; then
				echo "$tname SKIP - 0 slow-full-mode-only" >>"$res/tests.txt"
				skip=$((skip + 1))
				continue
			fi
			;;
		esac
		t_test=$(date +%s)
		rc=0
		set -f
		# shellcheck disable=SC2086 # $emu and $cmd are word lists
		(cd "$res/tests" && exec $emu "$here/tests/"$cmd) </dev/null >"$res/tests/$tname.log" 2>&1 || rc=$?
		set +f
		secs=$(($(date +%s) - t_test))
		if [ "$rc" = "$skip_rc" ]; then
			verdict=SKIP skip=$((skip + 1))
		elif { [ "$will_fail" = 0 ] && [ "$rc" = 0 ]; } || { [ "$will_fail" = 1 ] && [ "$rc" != 0 ]; }; then
			verdict=PASS pass=$((pass + 1))
		else
			verdict=FAIL fail=$((fail + 1))
		fi
		echo "$tname $verdict $rc $secs" >>"$res/tests.txt"
		[ "$verdict" != FAIL ] || log "test $tname FAILED (exit $rc): tests/$tname.log"
	done <"$here/tests/list"
	note tests "$pass passed, $fail failed, $skip skipped"
	log "tests: $pass passed, $fail failed, $skip skipped"
}
t0=$(date +%s)
if [ "$tests" = yes ]; then
	run_tests
else
	note tests "not run (--no-tests)"
fi
note tests_seconds "$(($(date +%s) - t0))"

for tool in fstime-selfcheck fs-expiry; do
	rc=0
	# shellcheck disable=SC2086
	$emu "$bin/$tool" >"$res/$tool.txt" 2>&1 || rc=$?
	note "$tool" "exit $rc"
	[ "$rc" = 0 ] || log "$tool failed (exit $rc): $tool.txt"
done

# --- benchmarks ---------------------------------------------------------------
# The passes of `scripts/lab bench` (plan.txt, written by the bundle from
# scripts/y2038lab/bench/run.py): headline, single, threaded, then paired, in
# as many processes as the budget allows (ten at least, each on a link order
# of its own: y2038-bench, y2038-bench-order1.., as many as the bundle has,
# then round again with another environment size; the import takes the
# processes of one link order as one unit of the statistic, so a run of ten
# processes has ten units where the host has twenty).  The budget (--minutes)
# covers the whole run: what is left of it after the facts, the tests and the
# first CPU probe is spread over the passes; where the host's plan does not
# fit, its minimum times are cut (then the repetitions of the single and
# threaded passes), and every cut is said in the log, run.txt and bench.cmd.
bench=$bin/y2038-bench
PROBE_ACCESSOR=accessor/get_mtime/v6/scalar
PROBE_LOAD=load/touch_private/v6/scalar/real_time/threads:1
MIN_PROCESSES=10 MAX_PROCESSES=100
[ -r "$here/plan.txt" ] || die "$here/plan.txt missing: the bundle is older than this run.sh"
case $mode in smoke) probe_time=0.002 ;; *) probe_time=0.05 ;; esac
full_flag=''
[ "$mode" != full ] || full_flag=--y2038_full
tab=$(printf '\t')
passes=''
while IFS=$tab read -r pname pfilter pthreaded qreps qmin freps fmin pprocs; do
	case $pname in '' | '#'*) continue ;; headline | paired | single | threaded) ;;
	*) die "plan.txt: unknown pass '$pname'" ;;
	esac
	case $mode in full) reps=$freps mt=$fmin ;; *) reps=$qreps mt=$qmin ;; esac
	# shellcheck disable=SC2034 # reps, mt: read through the eval below
	if [ "$mode" = smoke ]; then # a few benchmarks of each pass, the controls among the paired ones
		reps=1 mt=0.001
		case $pname in
		headline) pfilter='^(accessor/(get|set)_mtime/v6/[a-z0-9_]+|walk/stat_seq/v6/[a-z0-9_]+/4096)$' ;;
		paired) pfilter='^paired/(accessor/(get|set)_mtime/v6/|fstime/timestamp_truncate[^/]*/gran:100/inputs:in_range/throughput/)' reps=3 ;;
		single) pfilter='^shim/store_mtime/c_batch/64$' ;;
		threaded) pfilter='^load/touch_private/v6/scalar/real_time/threads:[12]$' ;;
		esac
	fi
	eval "filter_$pname=\$pfilter threaded_$pname=\$pthreaded reps_$pname=\$reps mt_$pname=\$mt"
	[ "$pprocs" = 1 ] || [ "$pname" = paired ] || die "plan.txt: pass $pname in $pprocs processes (only paired)"
	passes="$passes $pname"
done <"$here/plan.txt"
for pname in headline paired single threaded; do
	case " $passes " in *" $pname "*) ;; *) die "plan.txt: no $pname pass" ;; esac
done

# json_figures FILE...: "run_name ns" per benchmark of Google Benchmark 1.7.1
# JSON (one key per line, as it writes it): the median aggregate when the
# run had repetitions, else the time of its single run; errored rows none.
json_figures() {
	awk '
	function value(line) { sub(/^[^:]*: */, "", line); sub(/,$/, "", line); gsub(/"/, "", line); return line }
	FNR == 1 { inb = 0 }
	/^  "benchmarks": \[/ { inb = 1; next }
	!inb { next }
	/^    \{/ { run = ""; type = ""; agg = ""; rt = ""; unit = "ns"; err = 0; next }
	/^      "run_name": / { run = value($0) }
	/^      "run_type": / { type = value($0) }
	/^      "aggregate_name": / { agg = value($0) }
	/^      "real_time": / { rt = value($0) }
	/^      "time_unit": / { unit = value($0) }
	/^      "error_occurred": true/ { err = 1 }
	/^    \}/ {
		if (run == "" || rt == "" || err) next
		scale = (unit == "us") ? 1e3 : (unit == "ms") ? 1e6 : (unit == "s") ? 1e9 : 1
		if (!(run in seen)) { seen[run] = 1; names[++count] = run }
		if (type == "aggregate" && agg == "median") med[run] = rt * scale
		else if (type == "iteration") { n[run]++; one[run] = rt * scale }
	}
	END {
		for (i = 1; i <= count; i++) {
			r = names[i]
			if (r in med) printf "%s %.6g\n", r, med[r]
			else if (n[r] == 1) printf "%s %.6g\n", r, one[r]
		}
	}' "$@"
}

# on_cpu CPU PROGRAM [ARG]...: PROGRAM pinned to CPU (bin/y2038-pin).
on_cpu() {
	cpu=$1
	shift
	# shellcheck disable=SC2086
	$emu "$bin/y2038-pin" "$cpu" $emu "$@"
}

# probe WHEN: every CPU's speed, pinned: medians of 3 runs of the accessor
# and the one-thread update probe; bench/probes-WHEN.txt "cpu acc_ns load_ns".
probe() {
	when=$1
	: >"$res/bench/probes-$when.txt"
	for cpu in $cpus; do
		f=$res/bench/probe-$when-cpu$cpu.json
		on_cpu "$cpu" "$bench" "--benchmark_filter=^($PROBE_ACCESSOR|$PROBE_LOAD)\$" \
			--benchmark_min_time="$probe_time" --benchmark_repetitions=3 --benchmark_format=json \
			>"$f" 2>>"$res/bench/probe-$when.log" ||
			die "the CPU probe failed on CPU $cpu (see bench/probe-$when.log)"
		acc=$(json_figures "$f" | awk -v p="$PROBE_ACCESSOR" '$1 == p { print $2 }')
		upd=$(json_figures "$f" | awk -v p="$PROBE_LOAD" '$1 == p { print $2 }')
		if [ -z "$acc" ] || [ -z "$upd" ]; then
			die "the CPU probe on CPU $cpu gave no figure ($f)"
		fi
		echo "$cpu $acc $upd" >>"$res/bench/probes-$when.txt"
	done
}
probes_text() {
	awk '{ printf "%sCPU %s %s ns/get, %s ns/update", (NR > 1 ? "; " : ""), $1, $2, $3 }' "$1"
}

# count FILTER: how many benchmarks FILTER selects.
count() {
	# shellcheck disable=SC2086
	$emu "$bench" --benchmark_list_tests=true $full_flag --benchmark_filter="$1" 2>/dev/null | wc -l | tr -d ' '
}

t0=$(date +%s)
# shellcheck disable=SC2086
cpus=$($emu "$bin/y2038-pin" --list) || die "bin/y2038-pin --list failed"
note cpus_allowed "$cpus"
log "bench: probing CPUs $cpus"
t_probe=$(date +%s)
probe before
t_probe=$(($(date +%s) - t_probe))
# The plan: CPUs by their update probe, fastest first (as scripts/lab bench).
plan=$(awk '{ c[NR] = $1; t[NR] = $3 + 0 }
	END {
		for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++)
			if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x; x = c[i]; c[i] = c[j]; c[j] = x }
		for (i = 1; i <= NR; i++) printf "%s%s", (i > 1 ? "," : ""), c[i]
		printf "\n"
	}' "$res/bench/probes-before.txt")
fastest=${plan%%,*}
log "bench: per CPU: $(probes_text "$res/bench/probes-before.txt"); plan $plan"

# The budget: what is left once the second probe is set aside, spread over
# the passes.  A pass of n benchmarks, r repetitions of minimum time m each,
# takes about n ((r + 1) 1.4 m + 0.005 s) per process (Google Benchmark runs
# each repetition for about 1.4 m, after estimating the iteration count as
# long again; 0.005 s for setup and reporting, the order of what the host's
# quick passes spent per benchmark besides their repetitions), plus the
# program's start.  Before each pass the estimate of what is still to run is
# scaled by how long the passes so far took against their estimate (set-up
# and slow CPUs show there), and cut again if it no longer fits.
#
# fit LEFT SCALE PASS...: cut the minimum times of PASS... (by one factor, to
# floors of 0.0005 s paired and 0.001 s others), then the single and threaded
# passes' repetitions, until SCALE x their estimate fits LEFT seconds (the
# paired pass counted with MIN_PROCESSES processes); sets reps_P, mt_P and
# est_P (one process, unscaled) of each, est_all (all of them, scaled), and
# adds what it cut to $cuts.
fit() {
	fit_left=$1 fit_scale=$2
	shift 2
	fit_out=$(for fp; do
		eval "echo $fp \$n_$fp \$reps_$fp \$mt_$fp"
	done | awk -v left="$fit_left" -v scale="$fit_scale" -v start="$t_list" -v minp="$MIN_PROCESSES" '
	BEGIN { start /= 4 } # the start of one program: a quarter of the four listings
	function one(i) { return n[i] * ((r[i] + 1) * 1.4 * m[i] + 0.005) + start }
	function total(   i, t) { t = 0; for (i = 1; i <= k; i++) t += procs[i] * one(i); return t * scale }
	{
		k++; name[k] = $1; n[k] = $2; r[k] = r0[k] = $3; m[k] = m0[k] = $4
		procs[k] = ($1 == "paired") ? minp : 1
		floor[k] = ($1 == "paired") ? 0.0005 : 0.001
		if (floor[k] > m[k]) floor[k] = m[k]
	}
	END {
		s = 1; atfloor = 1
		for (i = 1; i <= k; i++) if (m[i] > floor[i]) atfloor = 0
		while (total() > left && !atfloor && s > 0.01) {
			s *= 0.9; atfloor = 1
			for (i = 1; i <= k; i++) { m[i] = m0[i] * s; if (m[i] <= floor[i]) m[i] = floor[i]; else atfloor = 0 }
		}
		cut = ""
		if (s < 1) {
			cut = sprintf("minimum time per repetition x%.2f:", s)
			for (i = 1; i <= k; i++) if (m[i] < m0[i]) cut = cut sprintf(" %s %g s -> %.4g s", name[i], m0[i], m[i])
		}
		if (total() > left)
			for (i = 1; i <= k; i++) if ((name[i] == "single" || name[i] == "threaded") && r[i] > 1) {
				cut = cut (cut ? ", " : "") sprintf("%s pass %d repetitions -> 1", name[i], r[i]); r[i] = 1
			}
		if (total() > left)
			cut = cut (cut ? ", " : "") sprintf("what is left (the paired pass in %d processes) needs about %d s, " \
				"%d s of the budget remain: the run will take longer than asked", minp, total() + 0.5, left)
		for (i = 1; i <= k; i++) printf "%s %d %.6g %.6g\n", name[i], r[i], m[i], one(i)
		printf "all %d\ncut %s\n", total() + 0.5, cut
	}')
	# shellcheck disable=SC2034 # b, c: read through the eval below
	while read -r fp a b c; do
		case $fp in
		all) est_all=$a ;;
		headline | paired | single | threaded) eval "reps_$fp=\$a mt_$fp=\$b est_$fp=\$c" ;;
		esac
	done <<EOF
$fit_out
EOF
	fit_cut=$(echo "$fit_out" | sed -n 's/^cut //p')
	[ -z "$fit_cut" ] || cuts="$cuts${cuts:+; }$fit_cut"
}
t_list=$(date +%s)
for pname in headline paired single threaded; do
	eval "n_$pname=\$(count \"\$filter_$pname\")"
done
t_list=$(($(date +%s) - t_list))
left=$((deadline - $(date +%s) - t_probe))
cuts=''
fit "$left" 1 headline paired single threaded
est_plan=$est_all
note budget_seconds "$budget"
note budget_plan "$left s left for the benchmarks after the facts, tests and probes; the $mode plan (plan.txt), paired pass in $MIN_PROCESSES processes, estimated at $est_plan s as cut"
log "bench: budget $budget s, $left s left; estimated at $est_plan s${cuts:+ once cut to fit: $cuts}"

governor=/sys/devices/system/cpu/cpu$fastest/cpufreq/scaling_governor
# pass_args NAME: pass NAME's Google Benchmark options as planned (and cut).
# run_pass NAME PART PROGRAM: one process of pass NAME, bin/PROGRAM (y2038-bench
# or one of its link orders), into bench/bench.PART.json and .txt.
pass_args() {
	eval "printf '%s\n' \"$full_flag --benchmark_repetitions=\$reps_$1 --benchmark_min_time=\$mt_$1 --benchmark_enable_random_interleaving=true\""
}
run_pass() {
	pname=$1 part=$2 program=$3
	eval "pfilter=\$filter_$pname pthreaded=\$threaded_$pname"
	args=$(pass_args "$pname")
	if [ "$pthreaded" = 1 ]; then
		# shellcheck disable=SC2086
		Y2038_BENCH_CPUS=$plan $emu "$bin/$program" --benchmark_out_format=json $args --benchmark_filter="$pfilter" \
			--benchmark_out="$res/bench/bench.$part.json" >"$res/bench/bench.$part.txt" 2>&1 ||
			die "bin/$program failed in the $pname pass (bench/bench.$part.txt)"
	else
		# shellcheck disable=SC2086
		on_cpu "$fastest" "$bin/$program" --benchmark_out_format=json $args --benchmark_filter="$pfilter" \
			--benchmark_out="$res/bench/bench.$part.json" >"$res/bench/bench.$part.txt" 2>&1 ||
			die "bin/$program failed in the $pname pass (bench/bench.$part.txt)"
	fi
}
# bench/processes.txt: one line per y2038-bench process, in the order they ran (boards.results reads it).
printf '# pass\tpart\tprogram\tenv_pad_bytes\tseconds\trepetitions\tmin_time_s\n' >"$res/bench/processes.txt"
# est_done, act_done: the passes run so far, estimated and taken (s).
est_done=0 act_done=0
for pname in headline single threaded; do
	case $pname in
	single) rest='single threaded paired' ;;
	threaded) rest='threaded paired' ;;
	*) rest='' ;;
	esac
	if [ -n "$rest" ]; then # what is left, estimated again at the pace of the passes so far
		# (date +%s counts whole seconds: a pass may have taken one second less than it shows)
		scale=$(awk -v e="$est_done" -v a="$act_done" 'BEGIN { printf "%.3f", (e > 0 && a - 1 > e) ? (a - 1) / e : 1 }')
		# shellcheck disable=SC2086 # rest: pass names
		fit $((deadline - $(date +%s) - t_probe)) "$scale" $rest
		[ -z "$fit_cut" ] || log "bench: the passes so far took x$scale their estimate; cut to fit: $fit_cut"
	fi
	t_pass=$(date +%s)
	eval "n=\$n_$pname"
	run_pass "$pname" "$pname" y2038-bench
	t_pass=$(($(date +%s) - t_pass))
	eval "printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \"\$pname\" \"\$pname\" y2038-bench 0 \"\$t_pass\" \"\$reps_$pname\" \"\$mt_$pname\"" \
		>>"$res/bench/processes.txt"
	eval "est_done=\$(awk -v d=\"\$est_done\" -v e=\"\$est_$pname\" 'BEGIN { print d + e }')"
	act_done=$((act_done + t_pass))
	# shellcheck disable=SC2154 # n: set by the eval above
	log "bench: $pname pass done ($n benchmarks, $(pass_args "$pname" | sed 's/^ //'), $t_pass s)"
done
note budget_cuts "${cuts:-none}"

# The paired pass: process k runs link order (k - 1) mod n_orders (the
# bundle's programs: y2038-bench and y2038-bench-order1..) with (k - 1) x 72
# bytes (modulo 4096) more environment (Y2038_ENV_PAD, which moves the stack:
# Mytkowicz et al., ASPLOS 2009), every process with the same options (its
# units must be alike); ten at least, then more while the next one, as long
# as the longest so far, still ends before the budget (keeping time for the
# last probe), at most MAX_PROCESSES.
deadline_note=''
k=0 longest=0 orders=0 n_orders=1
while [ -x "$bin/y2038-bench-order$n_orders" ]; do n_orders=$((n_orders + 1)); done
log "bench: $n_orders link orders in bin/ (y2038-bench, y2038-bench-order1..$((n_orders - 1)); the first one missing ends the list)"
[ "$n_orders" -gt 1 ] || log "bench: no bin/y2038-bench-order1: every paired process runs y2038-bench (one link order)"
while :; do
	k=$((k + 1))
	if [ "$k" -gt "$MIN_PROCESSES" ]; then
		if [ "$k" -gt "$MAX_PROCESSES" ]; then
			deadline_note="capped at $MAX_PROCESSES processes"
			break
		fi
		if [ $(($(date +%s) + longest + t_probe)) -gt "$deadline" ]; then
			deadline_note="no room for process $k within the budget"
			break
		fi
	fi
	order=$(((k - 1) % n_orders))
	program=y2038-bench
	[ "$order" = 0 ] || program=y2038-bench-order$order
	pad=$(printf "%$(((k - 1) * 72 % 4096))s" '' | tr ' ' x)
	t_pass=$(date +%s)
	Y2038_ENV_PAD=$pad
	export Y2038_ENV_PAD
	run_pass paired "paired$k" "$program"
	unset Y2038_ENV_PAD
	t_pass=$(($(date +%s) - t_pass))
	[ "$((t_pass + 1))" -le "$longest" ] || longest=$((t_pass + 1))
	# shellcheck disable=SC2154 # reps_paired, mt_paired: set by eval
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' paired "paired$k" "$program" "${#pad}" "$t_pass" "$reps_paired" "$mt_paired" \
		>>"$res/bench/processes.txt"
done
processes=$((k - 1))
orders=$(awk -F'\t' '$1 == "paired" { p[$3] = 1 } END { n = 0; for (x in p) n++; print n }' "$res/bench/processes.txt")
note paired_processes "$processes ($orders link orders; $deadline_note)"
# shellcheck disable=SC2154 # n_paired: set by eval
log "bench: paired pass done: $processes processes, $orders link orders, $n_paired benchmarks each ($deadline_note)"

{
	printf '%s\n' "bin/y2038-bench --benchmark_out_format=json --benchmark_out=… in the passes of plan.txt (scripts/lab bench), merged: headline, single (y2038-pin $fastest …), threaded (Y2038_BENCH_CPUS=$plan …), then paired in $processes processes (y2038-pin $fastest bin/y2038-bench[-order<k>] …, k = process - 1 mod $n_orders)${emulator:+ (every program through $emulator)}"
	for pname in headline single threaded paired; do
		eval "n=\$n_$pname pfilter=\$filter_$pname"
		each=''
		[ "$pname" != paired ] || each=" in each of $processes processes, $orders link orders, the environment 72 bytes longer in each (Y2038_ENV_PAD)"
		printf '%s pass (%s benchmarks, %s%s): --benchmark_filter='"'"'%s'"'"'\n' "$pname" "$n" \
			"$(pass_args "$pname" | sed 's/^ //')" "$each" "$pfilter"
	done
	printf 'budget: %s s (--minutes %s); the %s plan estimated at %s s of the %s s left for the benchmarks; cut to fit: %s; paired processes: %s (%s)\n' \
		"$budget" "$minutes" "$mode" "$est_plan" "$left" "${cuts:-nothing}" "$processes" "$deadline_note"
	printf 'CPUs measured before the run (pinned, medians of %s %s): %s\n' "$PROBE_ACCESSOR" "$PROBE_LOAD" \
		"$(probes_text "$res/bench/probes-before.txt")"
	printf 'single-threaded passes pinned to CPU %s (the fastest); threaded ones (load, torn) thread i on CPU i of %s\n' \
		"$fastest" "$plan"
	if [ -r "$governor" ]; then
		printf 'cpufreq governor: %s (left as it was)\n' "$(cat "$governor")"
	else
		printf 'cpufreq governor: not exposed (%s absent), frequency not controlled\n' "$governor"
	fi
	printf 'load average before the run: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	[ "$emulated" = no ] || printf 'EMULATED: %s; these times are not a board figure\n' "$why"
} >"$res/bench/bench.cmd"
probe after
log "bench: per CPU afterwards: $(probes_text "$res/bench/probes-after.txt")"
note bench_seconds "$(($(date +%s) - t0))"
if [ "$(date +%s)" -gt "$deadline" ]; then
	over="$(($(date +%s) - deadline)) s beyond the budget of $budget s: its minimum (ten paired processes) took longer than estimated"
	note budget_overrun "$over"
	log "bench: $over"
fi

# --- headline figures, in the Linaro test-definitions format -----------------
# headline.txt: "run_name ns" of the headline benchmarks.  result.txt: one
# "<test_case_id> <pass|fail|skip> [<measurement> <units>]" line per result,
# which boards/lava/send-to-lava.sh hands to lava-test-case.
json_figures "$res/bench/bench.headline.json" "$res/bench/bench.single.json" "$res/bench/bench.threaded.json" |
	awk 'NR == FNR { if ($0 !~ /^#/ && NF) pat[++n] = $0; next }
	     { for (i = 1; i <= n; i++) if ($1 ~ pat[i]) { print; next } }' "$here/headline.txt" - \
	>"$res/headline.txt"
lava_name() {
	printf '%s' "$1" | tr '/:' '.-'
}
{
	echo "y2038.abi.$abi pass"
	echo "y2038.board.$board pass"
	echo "y2038.mode.$mode pass"
	echo "y2038.emulated.$emulated pass"
	echo "y2038.cpus pass $(echo "$cpus" | wc -w) cpus"
	while read -r tname verdict _; do
		case $verdict in PASS) r=pass ;; FAIL) r=fail ;; *) r=skip ;; esac
		echo "test.$tname $r"
	done <"$res/tests.txt" 2>/dev/null
	while read -r bname ns; do
		echo "bench.$(lava_name "$bname") pass $ns ns"
	done <"$res/headline.txt"
} >"$res/result.txt"
note headline "$(wc -l <"$res/headline.txt") benchmarks"
note finished "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
note total_seconds "$(($(date +%s) - t_start))"

# --- one tarball ------------------------------------------------------------
tar -cf "$out/$name.tar.part" -C "$out" "$name" || die "tar failed"
gzip -c "$out/$name.tar.part" >"$out/$name.tar.gz.part" || die "gzip failed"
rm -f "$out/$name.tar.part"
mv "$out/$name.tar.gz.part" "$out/$name.tar.gz"
log "done in $(($(date +%s) - t_start)) s"
echo "results: $out/$name.tar.gz"
