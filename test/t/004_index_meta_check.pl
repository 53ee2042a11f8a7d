# test/t/004_index_meta_check.pl: ndd_index_check validates the metapage's description of the
# index before it follows it. An index grown into several segments is checked, then the metapage
# of the stopped cluster is damaged one field at a time (segment 0's page count, start and table
# placement, a later segment's start, the layout, the NULL chain's first page, the segment count)
# and each damage must be reported as corruption (XX002) naming what is wrong, never a crash or an
# "ok", by the check and by an insert (every metapage read checks it). The field offsets are those of NddMetaPageData in src/nddam.h (on-disk version 5); the test
# first checks them against what ndd_index_check reports of the intact index. Run by
# scripts/test.sh.
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
my $OFF_NSEGMENTS   = 24 + 704;
my $OFF_SEG         = 24 + 708;         # seg[s] = {npages, start, grown_pages}, 12 bytes each

my $node = PostgreSQL::Test::Cluster->new('meta_check');
$node->init;
$node->start;
# an index made on the empty table grows into several segments as the rows arrive
$node->safe_psql('postgres', q{
	CREATE EXTENSION ndd;
	CREATE TABLE t (id int, fp simhash64);
	CREATE INDEX t_fp ON t USING ndd (fp);
	INSERT INTO t SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 30000) g;
	INSERT INTO t VALUES (0, NULL);
});
my $ok = $node->safe_psql('postgres', "SELECT ndd_index_check('t_fp')");
like($ok, qr/4 tables x 30000 rows \+ 1 NULL rows .* in (\d+) segments, .*: ok$/,
	'the grown index checks ok');
my ($nseg) = $ok =~ /in (\d+) segments/;
my ($primaries) = $ok =~ /(\d+) primary pages per table/;
cmp_ok($nseg, '>=', 3, 'it has several segments');
my $file = $node->data_dir . '/' . $node->safe_psql('postgres', "SELECT pg_relation_filepath('t_fp')");
my $nblocks = $node->safe_psql('postgres', "SELECT pg_relation_size('t_fp') / 8192");
$node->stop;

open(my $fh, '+<:raw', $file) or die "cannot open $file: $!";
read($fh, my $meta, 8192) == 8192 or die;

sub u32 { return unpack('V', substr($meta, $_[0], 4)); }

# the offsets are right: what they read agrees with the check's report of the intact index
is(u32($OFF_VERSION), 5, 'on-disk version 5');
is(u32($OFF_NSEGMENTS), $nseg, 'nsegments is where the test reads it');
ok(u32($OFF_BLOCK_BITS) >= 1 && u32($OFF_BLOCK_BITS) <= 32, 'block_bits is where the test reads it');
my $sum = 0;
$sum += u32($OFF_SEG + 12 * $_) for 0 .. $nseg - 1;
is($sum, $primaries, 'seg[s].npages are where the test reads them');
is(u32($OFF_TABLE_START), 1, "table_start[0] is where the test reads it (segment 0's table 0 follows the metapage)");
is(u32($OFF_SEG + 4), 0, 'segment 0 has no start of its own');
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

damaged('segment 0 without pages', $OFF_SEG, pack('V', 0),
	'the metapage describes an impossible segment 0');
damaged('segment 0 with a start', $OFF_SEG + 4, pack('V', 1),
	'the metapage describes an impossible segment 0');
damaged("segment 0's table 3 past the end", $OFF_TABLE_START + 12, pack('V', $nblocks),
	'the metapage describes an impossible segment 0');
damaged("segment 0's table 1 on the metapage", $OFF_TABLE_START + 4, pack('V', 0),
	'the metapage describes an impossible segment 0');
damaged('segment 0 larger than the relation', $OFF_SEG, pack('V', $nblocks),
	'the metapage describes an impossible segment 0');
damaged('segment 1 past the end', $OFF_SEG + 12 + 4, pack('V', $nblocks),
	'the metapage describes an impossible segment 1');
damaged('a key width the layout does not make', $OFF_KEY_BITS, chr(15),
	'the metapage describes an impossible shape');
damaged('the NULL chain past the end', $OFF_NULL_START, pack('V', $nblocks),
	'the metapage describes an impossible shape');
damaged('no segments', $OFF_NSEGMENTS, pack('V', 0),
	'the metapage has an impossible number of segments');
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
