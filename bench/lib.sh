# bench/lib.sh: the setup every benchmark shares. A benchmark sources it first thing:
#
#     source "$(dirname "$0")/lib.sh"
#
# It sources scripts/lib.sh (Debian packages, build and install, the throwaway cluster), moves to
# the repository's root, and defines:
#   ndd_bench_cluster [setting=value ...]  installs the extension (not with NDD_NO_INSTALL=1),
#                                          starts a throwaway cluster with these settings and
#                                          stops it when the script exits
#   ndd_bench_machine [text]               prints the line every raw output starts with: cores,
#                                          CPU model and load, then text
#   PSQL                                   psql: no psqlrc, quiet, unaligned, tuples only, stops
#                                          at the first error
# A script with more to clean up at exit sets its own trap after ndd_bench_cluster, calling
# ndd_stop_cluster in it.
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$NDD_ROOT"

PSQL="psql -X -q -At -v ON_ERROR_STOP=1"

ndd_bench_cluster() {
	ndd_bench_install
	ndd_start_cluster "$@"
	trap ndd_stop_cluster EXIT
}

ndd_bench_machine() {
	echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load: $(cut -d' ' -f1-3 /proc/loadavg)${1:+; $1}"
}
