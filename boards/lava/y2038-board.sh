#!/bin/sh
# y2038-board.sh - the test script of y2038-board.yaml (Linaro
# test-definitions style): find or fetch the bundle, run it, leave its
# result lines in ./output/result.txt and the results tarball in ./output/.
#
# usage: y2038-board.sh [-d BUNDLE_DIR] [-u BUNDLE_URL] [-m quick|full|smoke] [-t MINUTES] [-b BOARD]
#   -t MINUTES  run.sh's time budget (empty: its default for the mode)
set -eu

dir=/opt/y2038 url='' mode=quick board='' minutes=''
while getopts 'd:u:m:t:b:h' opt; do
	case $opt in
	d) dir=$OPTARG ;;
	u) url=$OPTARG ;;
	m) mode=$OPTARG ;;
	t) minutes=$OPTARG ;;
	b) board=$OPTARG ;;
	*)
		echo "usage: $0 [-d BUNDLE_DIR] [-u BUNDLE_URL] [-m quick|full|smoke] [-t MINUTES] [-b BOARD]" >&2
		exit 2
		;;
	esac
done
case $mode in quick | full | smoke) ;; *)
	echo "y2038-board.sh: mode '$mode' is not quick, full or smoke" >&2
	exit 2
	;;
esac

out=$(pwd)/output
mkdir -p "$out"
: >"$out/result.txt"
if [ -n "$url" ]; then
	mkdir -p "$dir"
	if command -v wget >/dev/null 2>&1; then
		wget -q -O "$dir/bundle.tar.gz" "$url"
	elif command -v curl >/dev/null 2>&1; then
		curl -fsSL -o "$dir/bundle.tar.gz" "$url"
	else
		echo "y2038.bundle-fetch fail" >>"$out/result.txt"
		echo "y2038-board.sh: neither wget nor curl to fetch $url" >&2
		exit 0
	fi
	gzip -dc "$dir/bundle.tar.gz" | tar -xf - -C "$dir"
fi
run=''
for candidate in "$dir"/y2038-bundle-*/run.sh; do
	[ -f "$candidate" ] && run=$candidate && break
done
if [ -z "$run" ]; then
	echo "y2038.bundle-found fail" >>"$out/result.txt"
	echo "y2038-board.sh: no y2038-bundle-*/run.sh under $dir" >&2
	exit 0
fi
echo "y2038.bundle-found pass" >>"$out/result.txt"

set -- "--$mode" --out "$out"
[ -z "$board" ] || set -- "$@" --board "$board"
[ -z "$minutes" ] || set -- "$@" --minutes "$minutes"
if sh "$run" "$@" >"$out/run.out" 2>&1; then
	echo "y2038.run pass" >>"$out/result.txt"
else
	echo "y2038.run fail" >>"$out/result.txt"
fi
cat "$out/run.out"
# run.sh's own result lines: facts, tests, headline benchmarks.
for result in "$out"/y2038-results-*/result.txt; do
	[ -f "$result" ] && cat "$result" >>"$out/result.txt"
done
exit 0
