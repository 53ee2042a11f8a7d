#!/usr/bin/env bash
# Issue 21: the index's files call each other without a cycle (pages <- chains <- insert, growth,
# VACUUM, check, scan <- handler; doc/architecture.md, "The index's files"). Reads the object files
# of the build scripts/test.sh has just made (nm), so it needs no cluster.
set -euo pipefail
cd "$(dirname "$0")/../.."
objs=(src/ndd[a-z]*.o)
if [ ! -e "${objs[0]}" ]; then
	echo "no object files of the index (src/ndd*.o): build first (make)"
	exit 1
fi
command -v nm >/dev/null || { echo "nm (binutils) is missing"; exit 1; }
python3 scripts/call_graph.py "${objs[@]}"
python3 scripts/call_graph.py --check "${objs[@]}"
# the chain module is what insert, growth, VACUUM, check and scan share: each must call it
graph=$(python3 scripts/call_graph.py "${objs[@]}")
for f in nddinsert nddgrow nddvacuum nddcheck nddscan; do
	grep -q "^$f -> nddchain:" <<<"$graph" || { echo "FAILED: $f does not walk chains through nddchain.c"; exit 1; }
done
# nddpage.c holds primitives: it calls no other index file
if grep -q "^nddpage -> " <<<"$graph"; then
	echo "FAILED: nddpage.c calls another index file:"; grep "^nddpage -> " <<<"$graph"; exit 1
fi
echo "ok"
