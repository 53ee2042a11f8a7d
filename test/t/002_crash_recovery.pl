# test/t/002_crash_recovery.pl: an ndd index survives a crash by WAL replay alone.
#
# Builds an index, checkpoints, then changes the table only after the checkpoint (inserts that
# make the index grow, deletes and VACUUM, a transaction left open and one rolled back) and stops
# the server in "immediate" mode: no shutdown checkpoint, so every later index page exists only in
# the WAL. After the restart, ndd_index_check must pass and every radius query must return what a
# sequential scan returns. Run by scripts/test.sh (prove, PostgreSQL::Test::Cluster).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('crash');
$node->init;
# full_page_writes on (the default): the replay starts from the checkpoint's page images
$node->start;

# fingerprints from md5, deterministic; clusters of near values so that radius 3 finds neighbours
sub fp { my ($expr) = @_; return "('x' || md5($expr))::bit(64)::bigint::simhash64"; }
my %fp = map { $_ => fp("'$_' || g") } ('late', 'rolled back', 'never committed', 'after');
$node->safe_psql('postgres', "CREATE EXTENSION ndd");
$node->safe_psql('postgres', "
	CREATE TABLE t (id bigserial PRIMARY KEY, fp simhash64 NOT NULL);
	INSERT INTO t (fp) SELECT @{[ fp('g::text') ]} FROM generate_series(1, 3000) g;
	CREATE INDEX t_fp ON t USING ndd (fp);
	CHECKPOINT;");

# after the checkpoint: growth, near copies (one bit flipped), deletes, vacuum
$node->safe_psql('postgres', "
	INSERT INTO t (fp) SELECT $fp{'late'} FROM generate_series(1, 20000) g;
	INSERT INTO t (fp) SELECT (fp::bigint # (1::bigint << (id % 64)::int))::simhash64 FROM t WHERE id % 10 = 0;
	DELETE FROM t WHERE id % 7 = 0;
	VACUUM t;");
$node->safe_psql('postgres', "BEGIN; INSERT INTO t (fp) SELECT $fp{'rolled back'} FROM generate_series(1, 5000) g; ROLLBACK;");

my $before = $node->safe_psql('postgres', "SELECT count(*) FROM t");
my $open = $node->background_psql('postgres');
$open->query_safe("BEGIN");
$open->query_safe("INSERT INTO t (fp) SELECT $fp{'never committed'} FROM generate_series(1, 5000) g");

$node->stop('immediate');
eval { $open->quit };    # the session died with the server
$node->start;

is($node->safe_psql('postgres', "SELECT count(*) FROM t"), $before, 'committed rows only after recovery');
# the aborted and never-committed rows are dead: VACUUM removes their entries, as ndd_index_check asks
$node->safe_psql('postgres', "VACUUM t");
like($node->safe_psql('postgres', "SELECT ndd_index_check('t_fp')"), qr/\S/, 'ndd_index_check passes after recovery');

# every 50th row as a query, radius 3: index scan and sequential scan agree row for row
my $pairs = "SELECT q.id AS qid, d.id FROM t q, LATERAL (SELECT id FROM t WHERE fp <~> q.fp <= 3) d WHERE q.id % 50 = 0";
my $by_index = $node->safe_psql('postgres', "SET enable_seqscan = off; SET enable_bitmapscan = off;
	SELECT count(*), coalesce(sum(hashtext(qid || ',' || id)), 0) FROM ($pairs) s");
my $by_scan = $node->safe_psql('postgres', "SET enable_indexscan = off; SET enable_bitmapscan = off;
	SELECT count(*), coalesce(sum(hashtext(qid || ',' || id)), 0) FROM ($pairs) s");
is($by_index, $by_scan, 'radius queries through the index equal a sequential scan');
cmp_ok($node->safe_psql('postgres', "SELECT count(*) FROM ($pairs) s WHERE qid <> id"), '>', 100,
	'the queries found their near copies, not only themselves');
like($node->safe_psql('postgres', "SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT id FROM t WHERE fp <~> '0123456789abcdef' <= 3"),
	qr/Index Scan using t_fp|Bitmap Index Scan on t_fp/, 'the index is used');

# the index still takes writes after recovery
$node->safe_psql('postgres', "INSERT INTO t (fp) SELECT $fp{'after'} FROM generate_series(1, 2000) g");
like($node->safe_psql('postgres', "SELECT ndd_index_check('t_fp')"), qr/\S/, 'ndd_index_check passes after more inserts');

$node->stop;
done_testing();
