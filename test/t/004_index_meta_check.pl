# test/t/004_index_meta_check.pl: ndd_index_check validates the metapage's description of the
# index before it follows it. An index grown through several expansions of its map is checked,
# then the metapage of the stopped cluster is damaged one field at a time (the map's page count,
# its migration cursor, extent 0's page count, start and table placement, a later extent's start
# and place, the extent count, the layout, the NULL chain's first page, the free list) and each
# damage must be reported as corruption (XX002) naming what is wrong, never a crash or an "ok", by
# the check and by an insert (every metapage read checks it). The field offsets are those of
# NddMetaPageData in src/nddam.h (on-disk version 6); the test first checks them against what
# ndd_index_check reports of the intact index. Run by scripts/test.sh.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# byte offsets in block 0: the 24-byte page header, then NddMetaPageData
my $OFF_VERSION     = 24 + 4;
my $OFF_BLOCK_BITS  = 24 + 8;
my $OFF_NULL_START  = 24 + 16;
my $OFF_KEY_BITS    = 24 + 48 + 336;    # layout.key_bits[0]
my $OFF_TABLE_START = 24 + 448;         # table_start[t], 4 bytes each
my $OFF_GENERATION  = 24 + 704;
my $OFF_NPAGES      = 24 + 708;
my $OFF_OLD_NPAGES  = 24 + 712;
my $OFF_CURSOR      = 24 + 716;
my $OFF_FREE_HEAD   = 24 + 724;
my $OFF_NEXTENTS    = 24 + 732;
my $OFF_EXT         = 24 + 736;         # ext[e] = {first, count, start}, 12 bytes each

my $node = PostgreSQL::Test::Cluster->new('meta_check');
# pages are edited below: no data checksums (on by default from PostgreSQL 18)
$node->init(no_data_checksums => 1);
$node->start;
# an index made on the empty table expands its map as the rows arrive
$node->safe_psql('postgres', q{
	CREATE EXTENSION ndd;
	CREATE TABLE t (id int, fp simhash64);
	CREATE INDEX t_fp ON t USING ndd (fp);
	INSERT INTO t SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 30000) g;
	INSERT INTO t VALUES (0, NULL);
});
my $ok = $node->safe_psql('postgres', "SELECT ndd_index_check('t_fp')");
like($ok, qr/4 tables x 30000 rows \+ 1 NULL rows .* \(map generation \d+.*\), .*: ok$/,
	'the grown index checks ok');
my ($generation) = $ok =~ /map generation (\d+)/;
cmp_ok($generation, '>=', 3, 'its map has expanded several times');
my $file = $node->data_dir . '/' . $node->safe_psql('postgres', "SELECT pg_relation_filepath('t_fp')");
my $nblocks = $node->safe_psql('postgres', "SELECT pg_relation_size('t_fp') / 8192");
$node->stop;

open(my $fh, '+<:raw', $file) or die "cannot open $file: $!";
read($fh, my $meta, 8192) == 8192 or die;

sub u32 { return unpack('V', substr($meta, $_[0], 4)); }

# the offsets are right: what they read agrees with the check's report of the intact index
is(u32($OFF_VERSION), 6, 'on-disk version 6');
is(u32($OFF_GENERATION), $generation, 'generation is where the test reads it');
is(u32($OFF_NEXTENTS), $generation, 'nextents is where the test reads it (one extent per generation)');
ok(u32($OFF_BLOCK_BITS) >= 1 && u32($OFF_BLOCK_BITS) <= 32, 'block_bits is where the test reads it');
my $sum = 0;
$sum += u32($OFF_EXT + 12 * $_ + 4) for 0 .. $generation - 1;
is($sum, u32($OFF_NPAGES), 'ext[e].count and npages are where the test reads them');
is(u32($OFF_EXT + 12 + 0), u32($OFF_EXT + 4), 'ext[1].first is where the test reads it');
is(u32($OFF_TABLE_START), 1, "table_start[0] is where the test reads it (extent 0's table 0 follows the metapage)");
is(u32($OFF_EXT + 8), 0, 'extent 0 has no start of its own');
my $free = u32($OFF_FREE_HEAD);
ok($free == 0xFFFFFFFF || ($free > 0 && $free < $nblocks), 'free_head is where the test reads it');
is(ord(substr($meta, $OFF_KEY_BITS, 1)), 16, 'layout.key_bits[0] is where the test reads it (one 16-bit block)');

# Writes $meta with $len bytes at $off replaced by $bytes, starts the cluster, runs the check and
# expects it to report corruption matching $what; stops the cluster.
sub damaged
{
	my ($name, $off, $bytes, $what) = @_;
	my $copy = $meta;
	substr($copy, $off, length($bytes)) = $bytes;
	seek($fh, 0, 0) or die;
	print $fh $copy;
	$fh->flush;
	$node->start;
	my ($ret, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT ndd_index_check('t_fp')");
	isnt($ret, 0, "$name: the check fails");
	like($err, qr/XX002: ndd index "t_fp" is corrupted: \Q$what\E \(block 0\)/,
		"$name: it reports \"$what\"");
	# every metapage read makes the same check: an insert reports it too, before using the shape
	($ret, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nINSERT INTO t VALUES (-1, '0123456789abcdef')");
	isnt($ret, 0, "$name: an insert fails");
	like($err, qr/XX002: ndd index "t_fp" is corrupted: \Q$what\E \(block 0\)/,
		"$name: the insert reports \"$what\"");
	$node->stop;
}

damaged('a map of no pages', $OFF_NPAGES, pack('V', 0),
	'the metapage describes an impossible map');
damaged('a migration cursor past the previous map', $OFF_OLD_NPAGES, pack('V', 1) . pack('V', 2),
	'the metapage describes an impossible map');
damaged('extents that do not cover the map', $OFF_NPAGES, pack('V', u32($OFF_NPAGES) + 1),
	"the metapage's extents do not cover its map");
damaged('extent 0 without pages', $OFF_EXT + 4, pack('V', 0),
	'the metapage describes an impossible extent 0');
damaged('extent 0 with a start', $OFF_EXT + 8, pack('V', 1),
	'the metapage describes an impossible extent 0');
damaged("extent 0's table 3 past the end", $OFF_TABLE_START + 12, pack('V', $nblocks),
	'the metapage describes an impossible extent 0');
damaged("extent 0's table 1 on the metapage", $OFF_TABLE_START + 4, pack('V', 0),
	'the metapage describes an impossible extent 0');
damaged('extent 0 larger than the relation', $OFF_EXT + 4, pack('V', $nblocks),
	'the metapage describes an impossible extent 0');
damaged('extent 1 past the end', $OFF_EXT + 12 + 8, pack('V', $nblocks),
	'the metapage describes an impossible extent 1');
damaged('extent 1 not after extent 0', $OFF_EXT + 12, pack('V', u32($OFF_EXT + 12) + 1),
	'the metapage describes an impossible extent 1');
damaged('no extents', $OFF_NEXTENTS, pack('V', 0),
	'the metapage has an impossible number of extents');
damaged('a free list past the end', $OFF_FREE_HEAD, pack('V', $nblocks),
	"the metapage's free list starts outside the index");
damaged('a key width the layout does not make', $OFF_KEY_BITS, chr(15),
	'the metapage describes an impossible shape');
damaged('the NULL chain past the end', $OFF_NULL_START, pack('V', $nblocks),
	'the metapage describes an impossible shape');
damaged('a 40-bit heap block field for new pages', $OFF_BLOCK_BITS, pack('V', 40),
	'the metapage describes an impossible shape');

# intact again: the check passes
seek($fh, 0, 0) or die;
print $fh $meta;
close($fh) or die;
$node->start;
like($node->safe_psql('postgres', "SELECT ndd_index_check('t_fp')"), qr/: ok$/,
	'the restored index checks ok');
$node->stop;
done_testing();
