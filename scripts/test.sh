#!/usr/bin/env bash
# scripts/test.sh: runs every test of ndd on a Debian 12 machine, as root, from a bare checkout:
# installs what is missing, builds, runs the core's unit tests, installs the extension, starts a
# throwaway cluster, runs the pg_regress suite and the script tests (test/scripts/*.sh), and stops
# the cluster. The last line reads "N passed, N failed" (one count per test case).
#
#   scripts/test.sh            everything
#   scripts/test.sh unit       only the unit tests
#   NDD_TESTS="index_crash" scripts/test.sh   only the script tests whose names contain a word
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$NDD_ROOT"

passed=0 failed=0
failures=()
count() { passed=$((passed + $1)); failed=$((failed + $2)); [ "$2" -eq 0 ] || failures+=("$3"); }

ndd_install_deps || exit 1
export NDD_CORPUS_DIR=$(ndd_corpus_dir)
make -s -j"$(nproc)" PG_CONFIG=$NDD_PGBIN/pg_config || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

# ---- unit tests of the core ----
ndd_log "unit tests"
out=$(make -s unit 2>&1)
status=$?
printf '%s\n' "$out" | grep -E '^\[  (PASSED|FAILED) |^\[  FAILED  \]|^\[==========\]' >&2
n_ok=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p')
n_bad=$(printf '%s\n' "$out" | grep -c '^\[  FAILED  \] [A-Za-z]')
if [ "$status" -ne 0 ] && [ "${n_bad:-0}" -eq 0 ]; then printf '%s\n' "$out" | tail -30 >&2; n_bad=1; fi
count "${n_ok:-0}" "${n_bad:-0}" "unit tests"
if [ "${1:-}" = unit ]; then echo "${passed} passed, ${failed} failed"; [ "$failed" -eq 0 ]; exit; fi

# ---- everything below needs the installed extension and a cluster ----
ndd_build_install || { echo "${passed} passed, $((failed + 1)) failed"; exit 1; }
ndd_start_cluster
trap ndd_stop_cluster EXIT

ndd_log "pg_regress"
regress_out=$(mktemp -d /tmp/ndd-regress.XXXXXX)
tests=$(make -s -f - print-regress <<<'include Makefile
print-regress: ; @echo $(REGRESS)' 2>/dev/null)
"$NDD_PGBIN/../lib/pgxs/src/test/regress/pg_regress" --bindir="$NDD_PGBIN" --inputdir=test \
	--outputdir="$regress_out" --dbname=ndd_regression --load-extension=ndd \
	$tests >"$regress_out/summary" 2>&1
cat "$regress_out/summary" >&2
n_ok=$(grep -cE '\.\.\. ok|^ok ' "$regress_out/summary")
n_bad=$(grep -cE '\.\.\. FAILED|^not ok ' "$regress_out/summary")
if [ "$n_bad" -gt 0 ]; then
	ndd_log "regression.diffs:"
	head -300 "$regress_out/regression.diffs" >&2
fi
count "$n_ok" "$n_bad" "pg_regress"
[ "$n_bad" -gt 0 ] && [ "${NDD_KEEP_RESULTS:-0}" = 1 ] && ndd_log "results kept in $regress_out" || rm -rf "$regress_out"

# ---- script tests: each gets the cluster in PG* and NDD_* variables; exit status is the verdict ----
for t in test/scripts/*.sh; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .sh)
	if [ -n "${NDD_TESTS:-}" ] && ! grep -qE "$(echo "$NDD_TESTS" | tr ' ' '|')" <<<"$name"; then continue; fi
	ndd_log "script test $name"
	start=$(date +%s)
	if bash "$t" >&2; then
		count 1 0 "$name"
		ndd_log "ok $name ($(($(date +%s) - start)) s)"
	else
		count 0 1 "$name"
		ndd_log "FAILED $name ($(($(date +%s) - start)) s); server log tail:"
		tail -20 "$NDD_PGLOG" >&2
	fi
	ndd_restart_cluster || { ndd_log "the cluster does not start again after $name"; count 0 1 "restart after $name"; break; }
done

[ ${#failures[@]} -eq 0 ] || ndd_log "failed: ${failures[*]}"
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
