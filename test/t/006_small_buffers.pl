# test/t/006_small_buffers.pl: an ndd index stays exact when its pages keep leaving shared buffers.
#
# Every backend remembers the buffer each chain's first page was last found in and pins it again
# through ReadRecentBuffer (nddpage.c, ndd_read_first), which must notice that the buffer now
# holds another page. With 1 MB of shared buffers (128 buffers) and an index of several MB, one
# long session inserts rows in batches into an index made on the empty table (its map expands
# and migrates), and after each batch compares radius and KNN answers through the index with a
# sequential scan's, while a second session reads another table to evict pages. Run by
# scripts/test.sh (prove, PostgreSQL::Test::Cluster).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('small_buffers');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 1MB\nautovacuum = off");
$node->start;

sub fp { my ($expr) = @_; return "('x' || md5($expr))::bit(64)::bigint::simhash64"; }
$node->safe_psql('postgres', "
	CREATE EXTENSION ndd;
	CREATE TABLE t (id int, fp simhash64);
	CREATE INDEX t_fp ON t USING ndd (fp);
	CREATE TABLE other AS SELECT g, repeat('x', 200) AS pad FROM generate_series(1, 20000) g;");

my $s = $node->background_psql('postgres');
my $evict = $node->background_psql('postgres');
my $batches = 8;
my $per = 10000;
for my $b (0 .. $batches - 1)
{
	# new rows, and near copies (one or two bits flipped) of earlier ones
	$s->query_safe("
		INSERT INTO t SELECT g, @{[ fp('g::text') ]} FROM generate_series($b * $per + 1, ($b + 1) * $per) g;
		INSERT INTO t SELECT -id, (fp::bigint # (1::bigint << (id % 64)) # (1::bigint << ((id * 7) % 64)))::simhash64
			FROM t WHERE id > $b * $per AND id % 97 = 0;");
	$evict->query_safe("SELECT count(*) FROM other WHERE pad <> ''");
	my $q = "SELECT fp FROM t WHERE id > 0 AND id % 1009 = 0";
	my $by_index = $s->query_safe("
		SET enable_seqscan = off;
		SELECT string_agg(x, ',' ORDER BY x) FROM (
			SELECT k || ':' || t.id AS x FROM ($q) q, generate_series(0, 4) k, t WHERE t.fp <~> q.fp <= k
			UNION ALL
			SELECT 'knn:' || n.id FROM ($q) q, LATERAL (SELECT id FROM t ORDER BY fp <~> q.fp, id LIMIT 3) n) a;");
	my $by_scan = $s->query_safe("
		SET enable_seqscan = on; SET enable_indexscan = off; SET enable_bitmapscan = off;
		SELECT string_agg(x, ',' ORDER BY x) FROM (
			SELECT k || ':' || t.id AS x FROM ($q) q, generate_series(0, 4) k, t WHERE t.fp <~> q.fp <= k
			UNION ALL
			SELECT 'knn:' || n.id FROM ($q) q, LATERAL (SELECT id FROM t ORDER BY fp <~> q.fp, id LIMIT 3) n) a;
		RESET enable_indexscan; RESET enable_bitmapscan;");
	ok(length($by_scan) > 0 && $by_index eq $by_scan, "batch $b: index answers equal a sequential scan's");
}
my $shape = $s->query_safe("SELECT ndd_index_check('t_fp')");
like($shape, qr/: ok$/, 'ndd_index_check passes');
like($shape, qr/map generation [1-9]/, 'the map expanded while pages were being evicted');
my $mb = $s->query_safe("SELECT pg_relation_size('t_fp') / 1048576");
cmp_ok($mb, '>', 1, "the index ($mb MB) is larger than shared buffers");
$s->quit;
$evict->quit;
$node->stop;
done_testing();
