#!/usr/bin/env bash
# Issue 21: the index's files call each other without a cycle (pages <- chains <- insert, growth,
# VACUUM, check, scan <- handler; doc/architecture.md, "The index's files"), and so do the Jaccard
# pairs' files (SQL function <- disk path <- external sort; issue 30). Reads the object files
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
# the Jaccard pairs' files too (issue 30: jaccard_pairs.c and jaccard_spill.c called each other
# through the progress and pair callbacks): the SQL function drives the disk path, which uses the
# external sort; neither calls back into the file above it
jobjs=(src/jaccard_*.o)
[ -e "${jobjs[0]}" ] || { echo "no object files of the Jaccard pairs (src/jaccard_*.o): build first (make)"; exit 1; }
python3 scripts/call_graph.py "${jobjs[@]}"
python3 scripts/call_graph.py --check "${jobjs[@]}"
jgraph=$(python3 scripts/call_graph.py "${jobjs[@]}")
for edge in "jaccard_pairs -> jaccard_spill:" "jaccard_spill -> jaccard_extsort:"; do
	grep -q "^$edge" <<<"$jgraph" || { echo "FAILED: expected the call $edge"; exit 1; }
done
if grep -qE "^(jaccard_spill|jaccard_extsort) -> jaccard_pairs:|^jaccard_extsort -> " <<<"$jgraph"; then
	echo "FAILED: a lower Jaccard file calls back up:"; grep -E "^(jaccard_spill|jaccard_extsort) -> " <<<"$jgraph"; exit 1
fi
echo "ok"
