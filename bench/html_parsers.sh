#!/usr/bin/env bash
# bench/html_parsers.sh: Gumbo against libxml2's HTML parser on the real pages of the web sample
# (test/data/html) and on broken and hostile pages; the measurement behind the parser choice in
# doc/web.md. Each run is a child process under a 4 GB address-space limit and a 60 s timeout.
# Output: bench/results/html_parsers.txt (the raw lines: parser, file, bytes, seconds, max RSS kB,
# words; CRASHED or TIMEOUT when the run did not finish).
set -uo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$NDD_ROOT"
NDD_PACKAGES="libgumbo-dev libxml2-dev g++ python3" ndd_install_deps
dir=$(mktemp -d /tmp/ndd-html-parsers.XXXXXX)
trap 'rm -rf "$dir"' EXIT
g++ -O2 -std=c++17 -o "$dir/html_parsers" bench/html_parsers.cpp $(xml2-config --cflags) -lgumbo $(xml2-config --libs)
python3 - "$dir" <<'PY'
import gzip, json, sys
d = sys.argv[1]
pages = [json.loads(l)['html'] for l in gzip.open('test/data/html/pages.jsonl.gz', 'rt')]
for i, p in enumerate(pages):
    open(f'{d}/real{i:03d}.html', 'w').write(p)
open(f'{d}/deep100k.html', 'w').write('<html><body>' + '<div>' * 100000 + 'deep' + '</div>' * 100000)
open(f'{d}/deep100k_unclosed.html', 'w').write('<body>' + '<div><span>' * 100000 + 'x')
open(f'{d}/unclosed.html', 'w').write('<p>one<p>two<li>three<table><tr><td>four<td>five<b><i>six</b>seven</i><div>eight')
open(f'{d}/refs.html', 'w').write('&amp; &#0; &#xD800; &#x110000; &#99999999999; &bogus; &amp &lt;x&gt; &#65;&#x42;' * 1000)
s = ''.join(pages)
open(f'{d}/page100mb.html', 'w').write('<html><body>' + (s * (100 * 2**20 // len(s) + 1))[:100 * 2**20])
open(f'{d}/hugeattr.html', 'w').write('<div class="' + 'a' * (50 * 2**20) + '">x</div>')
open(f'{d}/junk.html', 'wb').write(bytes((i * 7919) % 256 for i in range(1 << 20)))
PY
out=bench/results/html_parsers.txt
{
	echo "# bash bench/html_parsers.sh   ($(date -u +%F), $(nproc) cores; gumbo $(dpkg-query -W -f='${Version}' libgumbo-dev), libxml2 $(dpkg-query -W -f='${Version}' libxml2-dev))"
	echo "# parser  file  bytes  seconds  max_rss_kB  words"
	for p in gumbo libxml2; do
		for f in deep100k deep100k_unclosed unclosed refs hugeattr junk page100mb; do
			(ulimit -v 4000000; timeout 60 "$dir/html_parsers" $p "$dir/$f.html") | sed "s|$dir/||" || echo "$p	$f.html	TIMEOUT (60 s) or killed"
		done
		(cd "$dir" && ./html_parsers $p real*.html) | awk -v p=$p '{b+=$3; t+=$4; if ($5>m) m=$5} END {printf "%s\t298 real pages\t%d\t%.3f\t%d\t(%.1f MB/s)\n", p, b, t, m, b/t/1e6}'
	done
	echo "# text agreement on the real pages (the words outside script/style, no separators added)"
	python3 - "$dir" <<'PY'
import subprocess, sys
d = sys.argv[1]; same = 0; js = []
for i in range(298):
    w = [subprocess.run([f'{d}/html_parsers', 'words', p, f'{d}/real{i:03d}.html'], capture_output=True, text=True).stdout.split() for p in ('gumbo', 'libxml2')]
    same += w[0] == w[1]; a, b = set(w[0]), set(w[1]); js.append(len(a & b) / max(1, len(a | b)))
js.sort()
print(f"identical word sequence: {same}/298 pages; word-set Jaccard median {js[149]:.4f}, min {js[0]:.4f}")
PY
} | tee "$out"
