#!/usr/bin/python3
"""Fuzzer of ndd (issue 8, point 7), run by test/scripts/fuzz.sh.

Three parts, all seeded (NDD_FUZZ_SEED) and bounded in time (NDD_FUZZ_SECONDS):
  calls   every function and operator of the extension, enumerated from the catalog (pg_depend on
          the extension, so new ones are fuzzed without a change here), called with random
          arguments: NULLs, empty and huge values, wrong lengths, boundary integers, arrays with
          NULLs, several dimensions and wrong element counts, columns of the same row, random SQL
          text for *_sql arguments. In a UTF8, a SQL_ASCII and a LATIN1 database, as a role that
          owns a scratch schema and nothing else, each call in a transaction that is rolled back.
  urls    random URLs (rand_url: every shape, hostile hosts and paths) against the properties of
          the canonical form: idempotent, and the SURT key of a URL is that of its canonical form.
  queries random query shapes on an ndd-indexed table (radius in every spelling, KNN, ndd_within,
          joins, LIMIT, prepared statements with generic plans), each compared with the same
          query with index scans disabled.
Failure: the server crashed (a query's connection or the sentinel connection died, or
pg_postmaster_start_time changed), an internal error (SQLSTATE XX000 or any class XX), or two
plans disagreeing, or a URL property broken. The failing SQL is printed exactly, with the seed to replay it.
"""
import os
import random
import sys
import time

import psycopg

SEED = int(os.environ.get("NDD_FUZZ_SEED") or int(time.time() * 1000) % 1000000007)
SECONDS = float(os.environ.get("NDD_FUZZ_SECONDS") or 120)
ROLE = "ndd_fuzzer"
DATABASES = [("ndd_fuzz_utf8", "UTF8"), ("ndd_fuzz_sql_ascii", "SQL_ASCII"), ("ndd_fuzz_latin1", "LATIN1")]
rng = random.Random(SEED)
failures = []
stats = {"calls": 0, "errors": 0, "timeouts": 0, "queries": 0, "url_checks": 0, "url_accepted": 0}
error_kinds = {}  # SQLSTATE -> count, printed at the end: what the random calls mostly hit
VERBOSE = os.environ.get("NDD_FUZZ_VERBOSE") == "1"


def log(msg):
    print(msg, flush=True)


def fail(kind, query, detail):
    failures.append((kind, query, detail))
    log(f"FAILURE ({kind}): {detail}\n  SQL: {query}\n  replay: NDD_FUZZ_SEED={SEED}")


def admin(db="postgres"):
    return psycopg.connect(dbname=db, autocommit=True, client_encoding="UTF8")


# ---------------------------------------------------------------- setup


def setup():
    with admin() as c:
        for db, _ in DATABASES:
            c.execute(f"DROP DATABASE IF EXISTS {db}")
        c.execute(f"DROP ROLE IF EXISTS {ROLE}")
        c.execute(f"CREATE ROLE {ROLE} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE")
        for db, enc in DATABASES:
            c.execute(f"CREATE DATABASE {db} TEMPLATE template0 ENCODING '{enc}' LC_COLLATE 'C' LC_CTYPE 'C'")
    for db, _ in DATABASES:
        with admin(db) as c:
            c.execute("CREATE EXTENSION ndd")
            c.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
            c.execute(f"CREATE SCHEMA fuzz AUTHORIZATION {ROLE}")
            c.execute(f"ALTER ROLE {ROLE} IN DATABASE {db} SET search_path = fuzz, public")
        with psycopg.connect(dbname=db, user=ROLE, autocommit=True, client_encoding="UTF8") as c:
            c.execute("""CREATE TABLE fuzz.t (id int, fp simhash64, fp2 simhash64, f128 fp128,
                           g128 fp128, k int, doc text, sketch bigint[])""")
            # groups of near-duplicates (so radius queries find something) plus NULLs
            c.execute("""INSERT INTO fuzz.t
                SELECT i, (h # (1::bigint << (i % 64)))::simhash64, (h # (3::bigint << (i % 60)))::simhash64,
                       (lpad(to_hex(h), 16, '0') || lpad(to_hex(h # i), 16, '0'))::fp128,
                       (lpad(to_hex(h # 5), 16, '0') || lpad(to_hex(h # i), 16, '0'))::fp128,
                       i % 7 - 1, 'doc ' || (i / 5) || ' word ' || repeat('x', i % 9),
                       ARRAY[i / 5, i % 11, NULL]::bigint[]
                FROM (SELECT i, (hashint8(i / 5)::bigint << 32) # hashint8(i / 5 + 7) AS h
                      FROM generate_series(1, 3000) i) s""")
            c.execute("INSERT INTO fuzz.t (id) VALUES (0), (-1)")
            c.execute("CREATE INDEX t_fp ON fuzz.t USING ndd (fp)")
            c.execute("CREATE INDEX t_f128 ON fuzz.t USING ndd (f128)")
            c.execute("ANALYZE fuzz.t")


def teardown():
    with admin() as c:
        for db, _ in DATABASES:
            c.execute(f"DROP DATABASE IF EXISTS {db}")
        c.execute(f"DROP ROLE IF EXISTS {ROLE}")


# ---------------------------------------------------------------- random values (as SQL text)

BOUNDARY_INTS = ["0", "-1", "1", "2", "3", "64", "128", "129", "2147483647", "-2147483648", "65536", "NULL"]


def q(s):
    return "'" + s.replace("'", "''") + "'"


def rand_hex(n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def rand_text():
    r = rng.random()
    if r < 0.1:
        return "''"
    if r < 0.15:
        return "NULL"
    if r < 0.17:  # huge, but modest: workflow functions are being made memory-bounded elsewhere
        return f"repeat({q(rng.choice(['a ', 'word ', 'é ', 'x']))}, {rng.choice([10000, 100000, 300000])})"
    if r < 0.2:  # huge with distinct words: past 4MB of work_mem, jaccard/containment sort on disk
        return f"(SELECT string_agg(g::text, ' ') FROM generate_series(1, {rng.choice([50000, 200000])}) g)"
    if r < 0.205:  # 10 MB (edit_distance: refused beyond work_mem, never a hang), and 100,000 CJK
        return rng.choice(["repeat('ab ', 3500000)",  # characters of 20,000 kinds (its sparse match masks)
                           "(SELECT string_agg(chr(19968 + (g * 7919) % 20000), '') FROM generate_series(1, 100000) g)"])
    if r < 0.3:
        return "t.doc"
    if r < 0.4:  # characters outside ASCII and LATIN1 (an error in those databases, never a crash)
        return q(rng.choice(["naïve café", "日本語のテキスト", "emoji 😀 text", "ß\u00a0nbsp", "tab\tnl\nend",
                             "ภาษาไทยง่ายนิดเดียว", "ພາສາລາວ ភាសាខ្មែរ မြန်မာ", "한국어를 배웁니다", "हिन्दी İΣ x²"]))
    if r < 0.42:  # a long run of Thai without spaces: ICU's dictionary over all of it
        return f"repeat('ภาษาไทยง่ายนิดเดียว', {rng.choice([1000, 30000])})"
    if r < 0.5:
        return f"chr({rng.choice([1, 127, 128, 255, 256, 1000, 65533])}) || 'x'"
    words = ["the", "quick", "brown", "fox", "123", "4.5", "a", "I", "don't", "--", "!!", "«»"]
    return q(" ".join(rng.choice(words) for _ in range(rng.randint(1, 40))))


def rand_html():
    """Broken and hostile HTML for ndd_html_text, ndd_html_content and ndd_html_meta (issues 22, 29)."""
    r = rng.random()
    if r < 0.08:  # deep nesting: a parser that recursed would overflow the stack
        tag = rng.choice(["div", "span", "b", "table", "li", "p", "a href=x", "nav"])
        n = rng.choice([1000, 100000])
        close = f" || repeat('</{tag.split()[0]}>', {n})" if rng.random() < 0.5 else ""
        return f"repeat('<{tag}>', {n}) || 'deep'{close}"
    if r < 0.12:  # a huge attribute and a huge page
        return rng.choice(["'<div class=\"' || repeat('sidebar ', 200000) || '\">x</div>'",
                           "repeat('<p>word <a href=\"/x\">link</a> text &amp; more</p>', 100000)",
                           "'<script>' || repeat('x', 1000000)", "'<!--' || repeat('<p>', 100000)"])
    if r < 0.16:  # hostile JSON-LD for the content model's articleBody (html_jsonld.cpp): deep nesting,
        # huge strings, invalid UTF-8 (SQL_ASCII), many scripts, an article beside the page's text
        ld = "'<script type=\"application/ld+json\">'"
        art = "'{\"@type\":\"NewsArticle\",\"articleBody\":\"'"
        text = "repeat('The river rose by two metres overnight, flooding the town. ', 40)"
        return rng.choice([
            f"{ld} || {art} || {text} || '\",\"x\":' || repeat('[', 200000) || repeat(']', 200000) || '}}</script><p>' || {text} || '</p>'",
            f"{ld} || repeat('{{\"@type\":\"Article\",\"a\":', 100000) || '</script><p>x</p>'",
            f"{ld} || {art} || repeat('word ', 400000) || '\"}}</script><p>word word word word</p>'",
            f"{ld} || {art} || (SELECT string_agg(chr(1 + (g * 7919) % 254), '') FROM generate_series(1, 5000) g) || '\"}}</script><p>' || {text} || '</p>'",
            f"repeat({ld} || {art} || {text} || '\"}}</script>', 3000) || '<p>' || {text} || '</p>'",
            f"{ld} || {art} || replace({text}, ' ', '\\u00e9 &lt;p&gt; ') || '\"}}</script><article><p>' || {text} || '</p><p>caption</p></article>'",
        ])
    if r < 0.2:  # every byte value (SQL_ASCII takes them as they are; elsewhere an encoding error)
        return "(SELECT string_agg(chr(1 + (g * 7919) % 254), '') FROM generate_series(1, 5000) g)"
    if r < 0.3:
        return rand_text()
    parts = ["<p>", "</p>", "<div class=\"content\">", "</div>", "<nav>", "<li>", "<table><tr><td>", "<b><i>",
             "</b>", "&amp;", "&#0;", "&#xD800;", "&#x110000;", "&#99999999999;", "&bogus;", "&nGt;", "&",
             "<script>evil()</script>", "<style>p{}</style>", "<template>t</template>", "<noscript>n</noscript>",
             "<!-- c -->", "<!--", "<![CDATA[x]]>", "<br>", "<", ">", "</", "<a href='x'>", "<?php ?>",
             "<!DOCTYPE html>", "<meta charset=latin1>", "<svg><path/></svg>", "<div hidden>h</div>", "\u00e9\u65e5",
             "word", " ", "\n", "<title>", "<head>", "<body>", "</html>", "<frameset>", "<plaintext>",
             # ndd_html_meta's sources (issue 29)
             "<link rel=canonical href=/x>", "<meta property=og:url content=", "<meta name=description content='d'>",
             "<script type=application/ld+json>{\"datePublished\": \"", "<time datetime=2020>", "<article>",
             "<script type=application/ld+json>{\"@type\":\"Article\",\"articleBody\":\"word word word word word",
             "\"}</script>", "{\"@graph\":[", "[[[[[[", "]]]", "</script>",
             "<html lang=", "itemprop=datePublished", " style=display:none", "<div class=and-w-sidebar>"]
    return q("".join(rng.choice(parts) for _ in range(rng.randint(1, 60))))


def rand_url(authority=False):
    """A URL for the url arguments: valid ones of every shape, and hostile ones (very long, every
    component empty, IPv6, userinfo, bad percent-encodings, junk bytes). authority: always a valid
    scheme followed by "://", so that the host, port and path parts decide."""
    r = 1.0 if authority else rng.random()
    if r < 0.1:
        return rand_text()
    if r < 0.15:  # very long: below and above the 65536-byte limit, many segments
        return f"'http://h/' || repeat({q(rng.choice(['a', '/', '../', '%41', '?a=1&', ';sid=1']))}, {rng.choice([1000, 21845, 65527, 70000])})"
    if r < 0.2:  # junk bytes (no NUL: text cannot hold one)
        return "'http://h/' || " + " || ".join(f"chr({rng.choice([1, 9, 32, 127, 128, 255, 256, 1000, 65533])})" for _ in range(rng.randint(1, 5)))
    parts = {
        "scheme": ["http", "https", "HTTP", "ftp", "mailto", "", "1http", "h+t-t.p"],
        "sep": ["://", ":", ":///", "//", ""],
        "userinfo": ["", "", "user@", "u:p@", "@", ":@", "%zz@", "ü@"],
        "host": ["h", "Example.COM", "bücher.de", "xn--bcher-kva.de", "[::1]", "[0:0::FFFF:1.2.3.4]", "[v1.x]",
                 "[::1", "10.0.0.1", "010.0.0.1", "", "%65x.com", "%C3%28.de", "%00", "a..b", ".", "h.", "ß.de",
                 "x" * 300, "١.com", "xn--", "xn--zz",
                 # issue 31: delimiters in other spellings inside hosts, IPv4 spellings, label dots
                 "evil.com\uff0fx.example.com", "example.com\uff20evil.com", "exa\uff05mple.com", "a.com\uff1a80",
                 "a\ufe6bb", "a\ufe56b", "a\uff03b", "a\uff3cb", "a%2Fb", "a%40b", "a%3ab", "a%25b", "a%2eb",
                 "a\u3002b", "a\uff61b", "\uff45\uff58.COM", "a_b", "r3---sn", "a,b", "a!b", "0x7f.1",
                 "2130706433", "0177.0.0.1", "\uff11\uff12\uff17.0.0.1", "1.2.3.4.", "256.1.1.1", "a.123",
                 "a\u00adb", "\u2488x", "\u2474"],
        "port": ["", "", ":80", ":443", ":", ":0", ":65535", ":65536", ":99999999999999999999", ":x"],
        "path": ["", "/", "/a/./b/../c", "/../..", "//", "/%7e/%3a/%", "/%zz", "/ü", "/a;jsessionid=1;x=2",
                 "/a b", "/a\\b", "/" + "a/" * 50,
                 "/x/..;jsessionid=1/y", "/x/.;sid=1/y", "/x/%2e%2E/y", "/x/.%2e", "/..;v=1/z", "/a;sid=1/..",
                 "/\uff0f/..", "/%2F..", "/.//x", ";sid=1//x"],
        "query": ["", "?", "?&&", "?b=2&a=1&a=0", "?utm_source=x&UTM_x=1&gclid=1", "?=&=", "?%", "?a=%zz", "??"],
        "fragment": ["", "#", "#f", "#%zz", "##"],
    }
    if authority:
        parts["scheme"], parts["sep"] = ["http", "https", "HTTP", "ftp", "foo"], ["://"]
    url = "".join(rng.choice(parts[k]) for k in ["scheme", "sep", "userinfo", "host", "port", "path", "query", "fragment"])
    return q(url)


def rand_sql_text():
    return q(rng.choice([
        "SELECT id, doc FROM fuzz.t", "SELECT id, fp FROM fuzz.t", "SELECT id, f128 FROM fuzz.t",
        "SELECT id, sketch FROM fuzz.t", "SELECT a.id, b.id FROM fuzz.t a, fuzz.t b WHERE a.id < 30 AND b.id < 30",
        "SELECT id, id FROM fuzz.t", "SELECT 1", "SELECT NULL::bigint, NULL::text", "", "not sql at all",
        "SELECT id, doc, doc FROM fuzz.t", "SELECT 1; SELECT 2", "SELECT pg_sleep(5)", "DROP TABLE fuzz.t",
        "SELECT id, fp FROM fuzz.t ORDER BY random()", "SELECT generate_series(1, 50), 'x'::text",
        "SELECT id, id + 1, 1.0 FROM fuzz.t", "SELECT id, cluster FROM (VALUES (1::bigint, 1::bigint)) v(id, cluster)",
        "SELECT id::bigint, fp FROM fuzz.t WHERE id < 100", "SELECT x FROM nonexistent",
        # the Jaccard pairs' stored-sketch column: right, wrong type, wrong length, null elements
        "SELECT id, doc, sketch FROM fuzz.t", "SELECT id, doc, sketch[1:3] FROM fuzz.t",
        "SELECT id, doc, sketch::text FROM fuzz.t", "SELECT id, doc, array_fill(NULL::bigint, ARRAY[128]) FROM fuzz.t",
        "SELECT id, doc, array_fill(7::bigint, ARRAY[2, 64]) FROM fuzz.t", "SELECT id % 7, doc FROM fuzz.t",
        # many equal fingerprints: quadratic pair sets
        "SELECT id, '0'::simhash64 FROM fuzz.t WHERE id < 400", "SELECT id, NULLIF(fp, fp) FROM fuzz.t",
        # pages for ndd_mirrors (url, fp): hosts sharing paths, bad URLs, URLs without a host
        "SELECT 'http://h' || (id % 7) || '.example/d/' || (id / 7), fp FROM fuzz.t",
        "SELECT 'http://h' || (id % 3) || '/' || (id % 5) || '/', f128 FROM fuzz.t",
        "SELECT 'http://h' || id || '/', '0'::simhash64 FROM fuzz.t WHERE id < 300",
        "SELECT doc, fp FROM fuzz.t", "SELECT 'mailto:x', fp FROM fuzz.t", "SELECT NULL::text, fp FROM fuzz.t",
    ]))


def rand_array(elem):
    dims = rng.choice([0, 1, 1, 1, 2, 3])
    if dims == 0:
        return "'{}'"
    n = rng.choice([0, 1, 2, 3, 5, 64, 200, 1000])
    vals = [rng.choice(["NULL", elem()]) if rng.random() < 0.1 else elem() for _ in range(max(n, 1))]
    if dims == 1:
        return "ARRAY[" + ",".join(vals) + "]"
    inner = max(1, min(n, 4))
    rows = ["ARRAY[" + ",".join(vals[:inner]) + "]" for _ in range(dims)]
    return "ARRAY[" + ",".join(rows) + "]"


def rand_value(typ, argname):
    """An SQL expression of (or castable to) typ; a NULL sometimes."""
    if rng.random() < 0.07:
        return "NULL"
    if typ == "text" and argname.endswith("_sql"):
        return rand_sql_text()
    if typ == "text" and argname == "html":
        return rand_html()
    if typ == "text" and argname == "tokenizer":  # mostly real names, the other tokenizer than the default
        return rng.choice(["'unicode'", "'unicode'", "'words'", "'Unicode'", "''", "'icu'", rand_text()])
    if typ == "text" and argname == "url":
        return rand_url()
    if typ in ("integer", "smallint", "bigint", "hamming_distance"):
        v = rng.choice(BOUNDARY_INTS + [str(rng.randint(-5, 200)), "t.k", "t.id"])
        return v if typ == "integer" else f"({v})::{typ}"
    if typ == "simhash64":
        return rng.choice([f"'{rand_hex(16)}'::simhash64", "t.fp", "t.fp2", "'0'::simhash64",
                           "(-1)::bigint::simhash64", f"'{rand_hex(rng.randint(1, 20))}'::simhash64"])
    if typ == "fp128":
        return rng.choice([f"'{rand_hex(32)}'::fp128", "t.f128", "t.g128",
                           f"'{rand_hex(rng.randint(1, 40))}'::fp128"])
    if typ == "hamming_ball":
        c = rng.choice([16, 32, 20])
        return rng.choice([f"'({rand_hex(c)},{rng.choice(BOUNDARY_INTS[:-1])})'::hamming_ball",
                           f"hamming_ball(t.fp, {rng.choice(BOUNDARY_INTS)})",
                           f"hamming_ball(t.f128, {rng.choice(BOUNDARY_INTS)})", "'(zz,1)'::hamming_ball"])
    if typ == "cstring":
        return q(rng.choice([rand_hex(16), rand_hex(32), rand_hex(40), "", "0x" + rand_hex(8), "(1,2)",
                             f"({rand_hex(16)},-5)", "(,)", "xyz", " 12 ", "-1", "99999999999999"])) + "::cstring"
    if typ == "text":
        return rand_text()
    if typ == "tsvector":
        return rand_text() + "::tsvector"
    if typ == "boolean":
        return rng.choice(["true", "false"])
    if typ in ("double precision", "real", "numeric"):
        return rng.choice(["0", "-1", "0.5", "1e308", "'NaN'", "'Infinity'", "'-Infinity'", "1e-300", "7"]) + f"::{typ}"
    if typ == "bigint[]":
        return rand_array(lambda: rng.choice(BOUNDARY_INTS[:-1] + ["9223372036854775807", "-9223372036854775808"])) \
            + "::bigint[]" if rng.random() < 0.85 else "t.sketch"
    if typ in ("simhash64[]", "fp128[]"):  # rows for ndd_layout_table_pairs: few values, so pairs exist
        base = typ[:-2]
        return rand_array(lambda: rng.choice([f"'{rand_hex(16 if base == 'simhash64' else 32)}'::{base}",
                                              *(f"'{v:0{w}x}'::{base}" for v in (0, 1, 3) for w in [16 if base == 'simhash64' else 32])])) \
            + f"::{typ}" if rng.random() < 0.85 else f"ARRAY[t.{'fp' if base == 'simhash64' else 'f128'}]"
    if typ == "text[]":
        return rand_array(lambda: q(rng.choice(["a", "", "word", "é", "x" * 50]))) + "::text[]"
    if typ in ("double precision[]", "real[]"):
        cast = "::float8[]" if typ == "double precision[]" else "::real[]"
        if rng.random() < 0.1:  # vectors: pgvector's 16,000 dimensions and one more
            return f"array_fill(0.5::float8, ARRAY[{rng.choice([768, 16000, 16001])}]){cast}"
        return rand_array(lambda: rng.choice(["1", "0", "-1", "'NaN'", "1e308", "0.25", "'Infinity'"])) + cast
    if typ == "bit":
        return f"B'{''.join(rng.choice('01') for _ in range(rng.choice([0, 1, 63, 64, 65, 128, 129])))}'"
    if typ == "uuid":
        return f"'{rand_hex(8)}-{rand_hex(4)}-{rand_hex(4)}-{rand_hex(4)}-{rand_hex(12)}'::uuid"
    if typ == "regclass":
        return rng.choice(["'fuzz.t'::regclass", "'fuzz.t_fp'::regclass", "'fuzz.t_f128'::regclass",
                           "'pg_class'::regclass", "0::regclass", "'pg_class_oid_index'::regclass",
                           "12345::oid::regclass"])  # no such relation (issue 31)
    if typ == "name":
        return rng.choice(["'fp'", "'id'", "'k'", "'doc'", "'nope'", "''", "'f128'"]) + "::name"
    if typ == "regconfig":
        return rng.choice(["'english'", "'simple'", "'french'", "12345::oid"]) + "::regconfig"  # 12345: none
    if typ == "anyelement":
        return rng.choice(["t.fp", "t.f128", "1", "'x'::text"])
    return "NULL"


# ---------------------------------------------------------------- the server's health


class Server:
    def __init__(self):
        self.sentinel = admin()
        self.start = self.sentinel.execute("SELECT pg_postmaster_start_time()").fetchone()[0]

    def check(self, query):
        """True if the server did not restart or crash since the last check."""
        try:
            st = self.sentinel.execute("SELECT pg_postmaster_start_time()").fetchone()[0]
            if st != self.start:
                fail("server restarted", query, f"pg_postmaster_start_time {self.start} -> {st}")
                self.start = st
                return False
            return True
        except psycopg.OperationalError as e:
            fail("server crashed", query, f"the sentinel connection died: {e}")
            for _ in range(120):  # wait for crash recovery, then go on fuzzing
                try:
                    self.sentinel = admin()
                    self.start = self.sentinel.execute("SELECT pg_postmaster_start_time()").fetchone()[0]
                    break
                except psycopg.OperationalError:
                    time.sleep(1)
            return False


def run_one(conn_factory, state, query, server):
    """Runs query in a rolled-back transaction; returns (rows or None, conn)."""
    conn = state.get("conn")
    if conn is None or conn.closed:
        conn = state["conn"] = conn_factory()
    try:
        with conn.transaction(force_rollback=True):
            conn.execute("SET LOCAL statement_timeout = '3s'")
            conn.execute("SET LOCAL work_mem = '4MB'")
            cur = conn.execute(query)
            return cur.fetchall() if cur.description else []
    except psycopg.errors.QueryCanceled:
        stats["timeouts"] += 1
    except psycopg.OperationalError as e:
        if e.sqlstate is None:  # no SQLSTATE: the connection itself failed
            server.check(query)
            fail("connection lost", query, str(e).strip())
            state["conn"] = None
        else:  # classes 53, 54, 57, 58 are OperationalError too: ordinary errors
            stats["errors"] += 1
            error_kinds[e.sqlstate] = error_kinds.get(e.sqlstate, 0) + 1
    except UnicodeError:  # a SQL_ASCII database returned bytes that are not UTF8: the client's concern
        stats["errors"] += 1
    except psycopg.Error as e:
        stats["errors"] += 1
        code = e.sqlstate or ""
        error_kinds[code] = error_kinds.get(code, 0) + 1
        if VERBOSE:
            log(f"  {code} {str(e).splitlines()[0][:150]}  <- {query[:200]}")
        if code.startswith("XX"):
            fail(f"internal error {code}", query, str(e).strip())
        if conn.closed or conn.broken:
            server.check(query)
            fail("connection lost", query, str(e).strip())
            state["conn"] = None
    return None


# ---------------------------------------------------------------- part 1: every function and operator

CATALOG = """
SELECT format('%I.%I', n.nspname, p.proname), p.proname,
       ARRAY(SELECT format_type(t, NULL) FROM unnest(p.proargtypes) t),
       coalesce(p.proargnames[1:p.pronargs], ARRAY[]::text[]), p.proretset
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ndd'
WHERE p.prokind = 'f' AND p.prorettype NOT IN ('trigger'::regtype, 'index_am_handler'::regtype)
  AND NOT 'internal'::regtype = ANY (p.proargtypes)
"""
OPERATORS = """
SELECT o.oprname, format_type(o.oprleft, NULL), format_type(o.oprright, NULL), n.nspname
FROM pg_operator o JOIN pg_namespace n ON n.oid = o.oprnamespace
JOIN pg_depend d ON d.classid = 'pg_operator'::regclass AND d.objid = o.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ndd'
WHERE o.oprleft <> 0
"""


def fuzz_calls(db, deadline, server):
    with admin(db) as c:
        funcs = c.execute(CATALOG).fetchall()
        ops = c.execute(OPERATORS).fetchall()
    state = {}
    factory = lambda: psycopg.connect(dbname=db, user=ROLE, autocommit=True, client_encoding="UTF8")  # noqa: E731
    while time.time() < deadline:
        if rng.random() < 0.75 or not ops:
            qual, name, types, argnames, retset = rng.choice(funcs)
            argnames = list(argnames) + [""] * len(types)
            args = [rand_value(t, argnames[i] or "") for i, t in enumerate(types)]
            call = f"{qual}({', '.join(args)})"
        else:
            op, left, right, nsp = rng.choice(ops)
            call = f"({rand_value(left, '')} OPERATOR({nsp}.{op}) {rand_value(right, '')})"
            retset = False
        shape = rng.random()
        if retset:
            query = f"SELECT * FROM fuzz.t, LATERAL {call} AS r WHERE t.id = {rng.randint(-1, 3000)} LIMIT 50" \
                if "t." in call else f"SELECT * FROM {call} AS r LIMIT 50"
        elif "t." in call or shape < 0.3:
            query = f"SELECT {call} FROM fuzz.t WHERE t.id {rng.choice(['<', '=', '>'])} {rng.randint(-1, 40)}"
        else:
            query = f"SELECT {call}"
        stats["calls"] += 1
        run_one(factory, state, query, server)
    if state.get("conn"):
        state["conn"].close()


# ---------------------------------------------------------------- part 1b: URL properties


def fuzz_urls(deadline, server):
    """Random URLs (rand_url) against the properties of the canonical form (issue 31): for every
    accepted u, normalize(normalize(u)) = normalize(u), surt(u) = surt(normalize(u)), and surt
    accepts exactly what normalize accepts; a URL that breaks one is a failure."""
    db = DATABASES[0][0]
    state = {}
    factory = lambda: psycopg.connect(dbname=db, user=ROLE, autocommit=True, client_encoding="UTF8")  # noqa: E731
    while time.time() < deadline:
        urls = ", ".join(f"({rand_url(authority=rng.random() < 0.7)})" for _ in range(50))
        query = (f"SELECT u, ndd_url_normalize(u, false), ndd_url_surt(u, false), ndd_url_is_valid(u), "
                 "ndd_url_normalize(ndd_url_normalize(u, false), false), ndd_url_surt(ndd_url_normalize(u, false), false) "
                 f"FROM (VALUES {urls}) AS v(u) WHERE u IS NOT NULL")
        for u, norm, surt, valid, norm2, surt2 in run_one(factory, state, query, server) or []:
            stats["url_checks"] += 1
            stats["url_accepted"] += 1 if valid else 0
            if valid != (norm is not None) or valid != (surt is not None) or norm2 != norm or surt2 != surt:
                fail("URL property", query, f"{u!r}: valid {valid}, normalized {norm!r} then {norm2!r}, "
                     f"SURT {surt!r}, of the normalized {surt2!r}")
    if state.get("conn"):
        state["conn"].close()


# ---------------------------------------------------------------- part 2: query shapes vs a seq scan


def rand_query():
    col, other, typ = rng.choice([("fp", "fp2", "simhash64"), ("f128", "g128", "fp128")])
    const = f"(SELECT {col} FROM fuzz.t WHERE id = {rng.randint(1, 3000)})" if rng.random() < 0.3 else \
        f"(SELECT {col} FROM fuzz.t WHERE id = {rng.randint(1, 3000)})::text::{typ}"
    qv = rng.choice([const, const, f"t.{other}", f"t.{col}", "$1"])
    k = rng.choice(["0", "1", "2", "3", "5", "-1", "200", "t.k", "$2", "(SELECT 2)"])
    cond = rng.choice([
        "t.{c} <~> {q} <= {k}", "t.{c} <~> {q} < {k}", "{k} >= t.{c} <~> {q}", "{q} <~> t.{c} <= {k}",
        "t.{c} <~> {q} BETWEEN 0 AND {k}", "t.{c} <~> {q} = {k}", "ndd_within(t.{c}, {q}, {k})",
        "t.{c} <@ hamming_ball({q}, {k})", "hamming_ball({q}, {k}) @> t.{c}", "t.{c} <~> {q} > {k}",
    ]).format(c=col, q=qv, k=k)
    shape = rng.random()
    if shape < 0.45:
        query = f"SELECT t.id FROM fuzz.t t WHERE {cond}"
        order = "ORDER BY 1"
    elif shape < 0.65:  # KNN: the distances, in order (ties make the ids a set)
        query = f"SELECT t.{col} <~> {qv} FROM fuzz.t t ORDER BY t.{col} <~> {qv} LIMIT {rng.choice([1, 5, 50])}"
        order = None
    elif shape < 0.85:  # join: the other side is an outer reference
        cond = cond.replace(qv, f"s.{rng.choice([col, other])}", 1)
        query = (f"SELECT s.id, t.id FROM fuzz.t s JOIN fuzz.t t ON {cond} WHERE s.id < {rng.randint(1, 40)}")
        order = "ORDER BY 1, 2"
    else:  # LIMIT over a radius search, counted
        query = f"SELECT count(*) FROM (SELECT t.id FROM fuzz.t t WHERE {cond} LIMIT {rng.choice([1, 10, 1000])}) s"
        order = "LIMIT_COUNT"
    return query, order, typ, col


def fuzz_queries(deadline, server):
    db = DATABASES[0][0]
    conn = psycopg.connect(dbname=db, user=ROLE, autocommit=True, client_encoding="UTF8")
    n = 0
    while time.time() < deadline:
        query, order, typ, col = rand_query()
        generic = "$1" in query or "$2" in query
        if generic:
            params = f"(SELECT {col} FROM fuzz.t WHERE id = {rng.randint(1, 3000)}), {rng.choice([0, 2, 3, -1, 300])}"
        n += 1
        results = []
        for index in (True, False):
            settings = ("SET LOCAL enable_seqscan = off" if index else
                        "SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off")
            text = (f"PREPARE fq({typ}, int) AS {query}; SET plan_cache_mode = force_generic_plan; "
                    f"EXECUTE fq({params})") if generic else query
            full = f"BEGIN; {settings}; {text}"
            stats["queries"] += 1
            try:
                with conn.transaction(force_rollback=True):
                    conn.execute("SET LOCAL statement_timeout = '5s'")
                    for stmt in settings.split("; "):
                        conn.execute(stmt)
                    if generic:
                        conn.execute(f"PREPARE fq{n}_{int(index)}({typ}, int) AS {query}")
                        conn.execute("SET LOCAL plan_cache_mode = force_generic_plan")
                        rows = conn.execute(f"EXECUTE fq{n}_{int(index)}({params})").fetchall()
                        conn.execute(f"DEALLOCATE fq{n}_{int(index)}")
                    else:
                        rows = conn.execute(query).fetchall()
                results.append(rows if order in (None, "LIMIT_COUNT") else sorted(rows, key=repr))
            except psycopg.errors.QueryCanceled:
                stats["timeouts"] += 1
                results.append(None)
            except psycopg.OperationalError as e:
                if e.sqlstate is not None:
                    stats["errors"] += 1
                    results.append(("error", e.sqlstate))
                    continue
                server.check(full)
                fail("connection lost", full, str(e).strip())
                conn = psycopg.connect(dbname=db, user=ROLE, autocommit=True, client_encoding="UTF8")
                results.append(None)
            except psycopg.Error as e:
                stats["errors"] += 1
                if (e.sqlstate or "").startswith("XX"):
                    fail(f"internal error {e.sqlstate}", full, str(e).strip())
                if conn.closed or conn.broken:
                    server.check(full)
                    fail("connection lost", full, str(e).strip())
                    conn = psycopg.connect(dbname=db, user=ROLE, autocommit=True, client_encoding="UTF8")
                results.append(("error", e.sqlstate))
        a, b = results
        if a is None or b is None:
            continue
        if a != b:  # LIMIT_COUNT: min(limit, matches), the same for both plans
            fail("wrong answer", query + (f"  -- EXECUTE with ({params})" if generic else ""),
                 f"index: {str(a)[:300]}  vs  seq scan: {str(b)[:300]}")
    conn.close()


def main():
    log(f"fuzz: NDD_FUZZ_SEED={SEED} NDD_FUZZ_SECONDS={SECONDS:g}")
    t0 = time.time()
    setup()
    server = Server()
    budget = max(SECONDS - (time.time() - t0), 10)
    per_db = budget * 0.5 / len(DATABASES)
    for db, enc in DATABASES:
        start = stats["calls"]
        fuzz_calls(db, time.time() + per_db, server)
        server.check(f"(after the calls in {db})")
        log(f"fuzz: {stats['calls'] - start} calls in {db} ({enc})")
    fuzz_urls(time.time() + budget * 0.1, server)
    server.check("(after the URL properties)")
    log(f"fuzz: {stats['url_checks']} random URLs checked against the URL properties, "
        f"{stats['url_accepted']} of them accepted")
    fuzz_queries(t0 + SECONDS, server)
    server.check("(at the end)")
    log(f"fuzz: {stats['calls']} calls, {stats['queries']} queries, {stats['errors']} errors (expected kinds), "
        f"{stats['timeouts']} timeouts, {len(failures)} failures; seed {SEED}")
    log("fuzz: errors by SQLSTATE: " + ", ".join(f"{k} {v}" for k, v in sorted(error_kinds.items(), key=lambda x: -x[1])))
    if not failures:
        teardown()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
