#!/bin/sh
# run.sh - the y2038 inode timestamp lab on a board: its facts, the tests,
# the CPU probes and the two pinned benchmark passes of `scripts/lab bench`.
#
# Part of a bundle made by `scripts/lab bundle <abi>` (bin/, tests/,
# manifest.txt, headline.txt beside this script).  Needs a POSIX shell and
# the usual tools, busybox being enough: awk cat cp cut date find gzip mkdir
# mv readlink rm sed tar tr uname wc.  Writes <out>/<name>/ and <out>/<name>.tar.gz, where
# <name> = y2038-results-<abi>-<board>-<UTC date>, and prints
# "results: <tarball>" last; `scripts/lab import` reads the tarball.
#
# usage: run.sh [--quick | --full | --smoke] [--board NAME] [--out DIR]
#               [--emulator CMD] [--no-tests]
#   --quick      (default) tests without the slow ones; benchmarks: medians of
#                3 interleaved repetitions of 0.02 s minimum each
#   --full       every test; benchmarks: --y2038_full, 5 repetitions
#   --smoke      a check that the bundle works, not a measurement: tests with
#                fewer random inputs, a few benchmarks, one short run each
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
mode=quick board='' out=$PWD emulator='' tests=yes

die() {
	printf 'run.sh: error: %s\n' "$*" >&2
	exit 1
}

usage() {
	sed -n '12,25p' "$here/run.sh" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
	case $1 in
	--quick) mode=quick ;;
	--full) mode=full ;;
	--smoke) mode=smoke ;;
	--no-tests) tests=no ;;
	--board | --out | --emulator)
		[ $# -ge 2 ] || die "$1 needs a value"
		case $1 in
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
note mode "$mode"
note board "$board"
note abi "$abi"
note started "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
note emulated "$emulated"
[ -z "$why" ] || note emulated_why "$why"
note emulator "${emulator:-none}"
note shell "$(readlink /proc/$$/exe 2>/dev/null || echo unknown)"
log "$name: mode $mode, board $board, ABI $abi${emulator:+, emulator $emulator}"
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
bench=$bin/y2038-bench
PROBE_ACCESSOR=accessor/get_mtime/v6/scalar
PROBE_LOAD=load/touch_private/v6/scalar/real_time/threads:1
THREADED='^(load|torn)/'
case $mode in
quick)
	args='--benchmark_min_time=0.02 --benchmark_repetitions=3 --benchmark_enable_random_interleaving=true'
	single="-$THREADED" threaded=$THREADED probe_time=0.05
	;;
full)
	args='--y2038_full --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true'
	single="-$THREADED" threaded=$THREADED probe_time=0.05
	;;
smoke)
	args='--benchmark_min_time=0.001 --benchmark_repetitions=1'
	single='^(accessor/(get|set)_mtime/v6/[a-z0-9_]+|walk/stat_seq/v6/[a-z0-9_]+/4096)$'
	threaded='^load/touch_private/v6/scalar/real_time/threads:[12]$' probe_time=0.002
	;;
esac

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

t0=$(date +%s)
# shellcheck disable=SC2086
cpus=$($emu "$bin/y2038-pin" --list) || die "bin/y2038-pin --list failed"
note cpus_allowed "$cpus"
log "bench: probing CPUs $cpus"
probe before
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
governor=/sys/devices/system/cpu/cpu$fastest/cpufreq/scaling_governor
{
	printf '%s\n' "bin/y2038-bench --benchmark_out_format=json $args --benchmark_out=… in two passes, merged: y2038-pin $fastest … --benchmark_filter='$single', then Y2038_BENCH_CPUS=$plan … --benchmark_filter='$threaded'${emulator:+ (every program through $emulator)}"
	printf 'CPUs measured before the run (pinned, medians of %s %s): %s\n' "$PROBE_ACCESSOR" "$PROBE_LOAD" \
		"$(probes_text "$res/bench/probes-before.txt")"
	printf 'single-threaded benchmarks pinned to CPU %s (the fastest); threaded ones (%s) in a second pass, thread i on CPU i of %s\n' \
		"$fastest" "$THREADED" "$plan"
	if [ -r "$governor" ]; then
		printf 'cpufreq governor: %s (left as it was)\n' "$(cat "$governor")"
	else
		printf 'cpufreq governor: not exposed (%s absent), frequency not controlled\n' "$governor"
	fi
	printf 'load average before the run: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	[ "$emulated" = no ] || printf 'EMULATED: %s; these times are not a board figure\n' "$why"
} >"$res/bench/bench.cmd"

# shellcheck disable=SC2086
on_cpu "$fastest" "$bench" --benchmark_out_format=json $args --benchmark_filter="$single" \
	--benchmark_out="$res/bench/bench.single.json" >"$res/bench/bench.single.txt" 2>&1 ||
	die "y2038-bench failed in the single-threaded pass (bench/bench.single.txt)"
log "bench: single-threaded pass done"
# shellcheck disable=SC2086
Y2038_BENCH_CPUS=$plan $emu "$bench" --benchmark_out_format=json $args --benchmark_filter="$threaded" \
	--benchmark_out="$res/bench/bench.threaded.json" >"$res/bench/bench.threaded.txt" 2>&1 ||
	die "y2038-bench failed in the threaded pass (bench/bench.threaded.txt)"
log "bench: threaded pass done"
probe after
log "bench: per CPU afterwards: $(probes_text "$res/bench/probes-after.txt")"
note bench_seconds "$(($(date +%s) - t0))"

# --- headline figures, in the Linaro test-definitions format -----------------
# headline.txt: "run_name ns" of the headline benchmarks.  result.txt: one
# "<test_case_id> <pass|fail|skip> [<measurement> <units>]" line per result,
# which boards/lava/send-to-lava.sh hands to lava-test-case.
json_figures "$res/bench/bench.single.json" "$res/bench/bench.threaded.json" |
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
