#!/bin/sh
# send-to-lava.sh RESULT_FILE - each line "<test_case_id> <pass|fail|skip>
# [<measurement> <units>]" as a lava-test-case, as Linaro's
# test-definitions do; outside LAVA (no lava-test-case) the lines are
# printed, so the script also runs by hand.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 RESULT_FILE" >&2; exit 2; }
[ -r "$1" ] || { echo "send-to-lava.sh: cannot read $1" >&2; exit 1; }
lava=no
command -v lava-test-case >/dev/null 2>&1 && lava=yes
while read -r name result measurement units; do
	[ -n "$name" ] || continue
	if [ "$lava" = no ]; then
		echo "<TEST_CASE_ID=$name RESULT=$result${measurement:+ MEASUREMENT=$measurement UNITS=$units}>"
	elif [ -n "$measurement" ]; then
		lava-test-case "$name" --result "$result" --measurement "$measurement" --units "$units"
	else
		lava-test-case "$name" --result "$result"
	fi
done <"$1"
