// test_tokenize.cpp
//    The default normalization: Python-exact lowercasing and letter/digit runs, checked on hand-made
//    cases (expected values from Python: re.findall(r"[^\W_]+", s.lower())) and on every document of
//    the evaluation corpus against the ground truth's token counts and shingle-set sizes.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "corpus_reader.hpp"
#include "similarity.hpp"
#include "tokenize.hpp"

namespace {

std::vector<std::string> tokens_of(const std::string& s) {
    ndd::InterruptPoller poller(nullptr);
    ndd::TokenStream ts;
    ts.tokenize(s.data(), s.size(), poller);
    std::vector<std::string> out;
    for (size_t i = 0; i < ts.size(); i++) out.emplace_back(ts.token(i));
    return out;
}

using V = std::vector<std::string>;

TEST(Tokenize, AsciiSeparatorsAndCase) {
    EXPECT_EQ(tokens_of("Hello, World! foo_bar 42x"), (V{"hello", "world", "foo", "bar", "42x"}));
    EXPECT_EQ(tokens_of("can't won't"), (V{"can", "t", "won", "t"}));
    EXPECT_EQ(tokens_of("  \t\n"), V{});
    EXPECT_EQ(tokens_of(""), V{});
    EXPECT_EQ(tokens_of("___"), V{});
    EXPECT_EQ(tokens_of("A"), V{"a"});
}

TEST(Tokenize, StreamIsTokensJoinedBySingleSpaces) {
    ndd::InterruptPoller poller(nullptr);
    ndd::TokenStream ts;
    std::string s = "  The QUICK,,, brown\n\nfox!  ";
    ts.tokenize(s.data(), s.size(), poller);
    EXPECT_EQ(ts.text(), "the quick brown fox");
    EXPECT_EQ(ts.span(1, 2), "quick brown");
    EXPECT_EQ(ts.span(0, 4), "the quick brown fox");
    EXPECT_EQ(ts.token(3), "fox");
}

TEST(Tokenize, UnicodeLettersDigitsAndLowercase) {
    EXPECT_EQ(tokens_of("Stra\xc3\x9f" "e \xc3\x89" "COLE na\xc3\xafve"), (V{"stra\xc3\x9f" "e", "\xc3\xa9" "cole", "na\xc3\xafve"}));
    // A combining acute accent (U+0301) is not a letter: it splits, as in Python.
    // Vulgar fraction, superscript two, Arabic-Indic digits, Roman numeral twelve, CJK numerals.
    EXPECT_EQ(tokens_of("e\xcc\x81t\xc3\xa9 \xc2\xbd x\xc2\xb2 \xd9\xa3\xd9\xa4 \xe2\x85\xab \xe4\xb8\x80\xe4\xba\x8c"),
              (V{"e", "t\xc3\xa9", "\xc2\xbd", "x\xc2\xb2", "\xd9\xa3\xd9\xa4", "\xe2\x85\xbb", "\xe4\xb8\x80\xe4\xba\x8c"}));
    // Japanese runs without spaces are one token.
    EXPECT_EQ(tokens_of("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae"), (V{"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae"}));
    // Title-case digraph DZ with caron (U+01C5) lowercases to U+01C6; capital sharp s to sharp s.
    EXPECT_EQ(tokens_of("\xc7\x85" "emal \xe1\xba\x9e"), (V{"\xc7\x86" "emal", "\xc3\x9f"}));
}

TEST(Tokenize, CapitalIWithDotSplitsLikePython) {
    // "İstanbul".lower() is "i" + U+0307 + "stanbul"; U+0307 is a combining mark, so it separates.
    EXPECT_EQ(tokens_of("\xc4\xb0stanbul \xc4\xb0\xc4\xb0"), (V{"i", "stanbul", "i", "i"}));
}

TEST(Tokenize, FinalSigmaFollowsPythonsContextRule) {
    // "ΟΔΟΣ ΟΔΟΣ. Σ ΑΣ'Α ΑΣ." -> οδος οδος σ ασ α ας
    EXPECT_EQ(tokens_of("\xce\x9f\xce\x94\xce\x9f\xce\xa3 \xce\x9f\xce\x94\xce\x9f\xce\xa3. \xce\xa3 "
                        "\xce\x91\xce\xa3'\xce\x91 \xce\x91\xce\xa3."),
              (V{"\xce\xbf\xce\xb4\xce\xbf\xcf\x82", "\xce\xbf\xce\xb4\xce\xbf\xcf\x82", "\xcf\x83",
                 "\xce\xb1\xcf\x83", "\xce\xb1", "\xce\xb1\xcf\x82"}));
    // "ΣΑΣ" -> σας ; "Α.Σ." -> α ς (the period is case-ignorable, so the sigma is final)
    EXPECT_EQ(tokens_of("\xce\xa3\xce\x91\xce\xa3"), (V{"\xcf\x83\xce\xb1\xcf\x82"}));
    EXPECT_EQ(tokens_of("\xce\x91.\xce\xa3."), (V{"\xce\xb1", "\xcf\x82"}));
}

TEST(Tokenize, InvalidUtf8BytesSeparateAndNeverOverread) {
    EXPECT_EQ(tokens_of("ab\xff" "cd"), (V{"ab", "cd"}));
    EXPECT_EQ(tokens_of("ab\xc3"), (V{"ab"}));                 // truncated 2-byte sequence at the end
    EXPECT_EQ(tokens_of("ab\xe2\x82"), (V{"ab"}));             // truncated 3-byte sequence
    EXPECT_EQ(tokens_of("a\xc0\xaf" "b"), (V{"a", "b"}));      // overlong encoding of '/'
    EXPECT_EQ(tokens_of("a\xed\xa0\x80" "b"), (V{"a", "b"}));  // UTF-16 surrogate
    EXPECT_EQ(tokens_of("a\xf4\x90\x80\x80" "b"), (V{"a", "b"}));  // beyond U+10FFFF
    // A capital sigma next to invalid bytes and at both ends of the buffer.
    EXPECT_EQ(tokens_of("\xce\xa3\xff"), (V{"\xcf\x83"}));
    EXPECT_EQ(tokens_of("\x80\xce\xa3"), (V{"\xcf\x83"}));

    // Random bytes in buffers of exactly their size: no crash, and the stream stays within bounds.
    std::mt19937_64 rng(42);
    const std::string alphabet = "aZ9 .'_\xce\xa3\xc4\xb0\xc3\x89\xe2\x85\xab\x80\xbf\xff\xf0\x9f";
    for (int round = 0; round < 2000; round++) {
        size_t len = rng() % 40;
        std::unique_ptr<char[]> buf(new char[len ? len : 1]);
        for (size_t i = 0; i < len; i++)
            buf[i] = (rng() & 1) ? static_cast<char>(rng()) : alphabet[rng() % alphabet.size()];
        ndd::InterruptPoller poller(nullptr);
        ndd::TokenStream ts;
        ts.tokenize(buf.get(), len, poller);
        ASSERT_LE(ts.text().size(), len + len / 2 + 4);
        for (size_t i = 0; i < ts.size(); i++) ASSERT_FALSE(ts.token(i).empty());
    }
}

TEST(Tokenize, Utf8DecoderRoundTrips) {
    for (uint32_t cp : {0x0u, 0x41u, 0x7Fu, 0x80u, 0x7FFu, 0x800u, 0xFFFFu, 0x10000u, 0x10FFFFu}) {
        char buf[4];
        size_t n = ndd::encode_utf8(cp, buf);
        uint32_t back;
        ASSERT_EQ(ndd::decode_utf8(reinterpret_cast<unsigned char*>(buf), reinterpret_cast<unsigned char*>(buf) + n, &back), n);
        EXPECT_EQ(back, cp);
    }
}

TEST(Tokenize, ShinglesOfShortAndEmptyStreams) {
    ndd::InterruptPoller poller(nullptr);
    ndd::TokenStream ts;
    std::string s = "one two three";
    ts.tokenize(s.data(), s.size(), poller);
    std::vector<std::string> got;
    ndd::for_each_shingle(ts, 4, poller, [&](std::string_view v) { got.emplace_back(v); });
    EXPECT_EQ(got, (V{"one two three"}));
    got.clear();
    ndd::for_each_shingle(ts, 2, poller, [&](std::string_view v) { got.emplace_back(v); });
    EXPECT_EQ(got, (V{"one two", "two three"}));
    ts.tokenize("", 0, poller);
    got.clear();
    ndd::for_each_shingle(ts, 4, poller, [&](std::string_view v) { got.emplace_back(v); });
    EXPECT_TRUE(got.empty());
    EXPECT_EQ(ndd::shingle_count(0, 4), 0u);
    EXPECT_EQ(ndd::shingle_count(3, 4), 1u);
    EXPECT_EQ(ndd::shingle_count(10, 4), 7u);
}

// Every ground-truth pair of a corpus: token counts, distinct shingle counts and intersection exact.
void check_corpus(const std::string& docs_file, const std::string& pairs_file, size_t k) {
    std::vector<ndd_test::Doc> docs = ndd_test::read_docs(docs_file);
    std::vector<ndd_test::TruthPair> pairs = ndd_test::read_pairs(pairs_file);
    ASSERT_FALSE(docs.empty());
    ASSERT_FALSE(pairs.empty());
    std::map<std::string, size_t> by_id = ndd_test::index_by_id(docs);
    ndd::InterruptPoller poller(nullptr);
    std::vector<std::unique_ptr<ndd::TokenStream>> streams(docs.size());
    std::vector<std::unique_ptr<ndd::ShingleSet>> sets(docs.size());
    auto set_of = [&](const std::string& id) -> std::pair<size_t, const ndd::ShingleSet*> {
        size_t i = by_id.at(id);
        if (!sets[i]) {
            streams[i].reset(new ndd::TokenStream);
            streams[i]->tokenize(docs[i].text.data(), docs[i].text.size(), poller);
            sets[i].reset(new ndd::ShingleSet(*streams[i], k, poller));
        }
        return {streams[i]->size(), sets[i].get()};
    };
    size_t mismatches = 0;
    for (const ndd_test::TruthPair& p : pairs) {
        auto [na, sa] = set_of(p.a);
        auto [nb, sb] = set_of(p.b);
        long inter = static_cast<long>(sa->intersection(*sb, poller));
        char jac[32];
        snprintf(jac, sizeof jac, "%.6f", ndd::jaccard_of({sa->size(), sb->size(), static_cast<size_t>(inter)}));
        bool ok = static_cast<long>(na) == p.ntok_a && static_cast<long>(nb) == p.ntok_b &&
                  static_cast<long>(sa->size()) == p.size_a && static_cast<long>(sb->size()) == p.size_b &&
                  inter == p.inter && p.jaccard == jac;
        if (!ok && mismatches++ < 5)
            ADD_FAILURE() << docs_file << " k=" << k << " pair " << p.a << " " << p.b << ": ntok " << na << "/" << nb
                          << " (truth " << p.ntok_a << "/" << p.ntok_b << "), sizes " << sa->size() << "/" << sb->size()
                          << " (truth " << p.size_a << "/" << p.size_b << "), inter " << inter << " (truth "
                          << p.inter << "), jaccard " << jac << " (truth " << p.jaccard << ")";
    }
    EXPECT_EQ(mismatches, 0u) << "of " << pairs.size() << " pairs in " << pairs_file;
}

TEST(TokenizeCorpus, SampleMatchesGroundTruth) {
    check_corpus(ndd_test::sample_file("sample.jsonl"), ndd_test::sample_file("sample.pairs.k4.tsv"), 4);
    check_corpus(ndd_test::sample_file("sample.jsonl"), ndd_test::sample_file("sample.pairs.k3.tsv"), 3);
}

// The evaluation corpus (optional): the same checks on its larger and more varied collections.
void check_in_corpus(const std::string& docs, const std::string& pairs, size_t k) {
    check_corpus(ndd_test::corpus_file(docs), ndd_test::corpus_file(pairs), k);
}

TEST(TokenizeCorpus, LabelledMatchesGroundTruth) {
    NDD_REQUIRE_CORPUS();
    check_in_corpus("dev/labelled.jsonl.gz", "dev/labelled.pairs.k4.tsv.gz", 4);
    check_in_corpus("dev/labelled.jsonl.gz", "dev/labelled.pairs.k3.tsv.gz", 3);
    check_in_corpus("labelled-cs.jsonl.gz", "labelled-cs.pairs.k4.tsv", 4);
}

TEST(TokenizeCorpus, LegalMatchesGroundTruth) {
    NDD_REQUIRE_CORPUS();
    check_in_corpus("dev/legal.jsonl.gz", "dev/legal.pairs.k4.tsv.gz", 4);
    check_in_corpus("dev/legal.jsonl.gz", "dev/legal.pairs.k3.tsv.gz", 3);
}

TEST(TokenizeCorpus, WebMatchesGroundTruth) {
    NDD_REQUIRE_CORPUS();
    check_in_corpus("dev/web.jsonl.gz", "dev/web.pairs.k4.tsv.gz", 4);
    check_in_corpus("dev/web.jsonl.gz", "dev/web.pairs.k3.tsv.gz", 3);
}

TEST(TokenizeCorpus, ManMatchesGroundTruth) {
    NDD_REQUIRE_CORPUS();
    check_in_corpus("dev/man.jsonl.gz", "dev/man.pairs.k4.tsv.gz", 4);
}

}  // namespace
