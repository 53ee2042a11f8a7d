// test_fingerprint_api.cpp
//    The C boundary: statuses for bad arguments, cancellation of long work, allocation failure, and
//    agreement with the C++ functions behind it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "fingerprint_api.h"

namespace {

int g_polls = 0;
int g_cancel_after = -1;

// Counts polls; asks to stop once g_cancel_after polls have been seen (never when negative).
int counting_interrupt() {
    g_polls++;
    return g_cancel_after >= 0 && g_polls > g_cancel_after;
}

void reset_interrupt(int cancel_after) {
    g_polls = 0;
    g_cancel_after = cancel_after;
}

std::vector<void*> g_allocated;
void* tracking_alloc(size_t n) {
    void* p = std::malloc(n);
    g_allocated.push_back(p);
    return p;
}
void* failing_alloc(size_t) { return nullptr; }

void free_tracked() {
    for (void* p : g_allocated) std::free(p);
    g_allocated.clear();
}

std::string big_text(size_t bytes) {
    std::string s;
    unsigned x = 1;
    while (s.size() < bytes) {
        x = x * 1103515245u + 12345u;
        s += "word" + std::to_string((x >> 8) % 20000) + ((x & 15) ? " " : ".\n");
    }
    return s;
}

TEST(FingerprintApi, InvalidParametersAreReported) {
    uint64_t h;
    int64_t sketch[NDD_MAX_MINHASHES + 1];
    NddFp128 fp;
    int32_t n;
    NddShingleOverlap o;
    const char* d = "some text";
    size_t len = strlen(d);
    EXPECT_EQ(ndd_fp_simhash_text(d, len, 0, &h, NDD_TOKENIZER_WORDS, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_simhash_text(d, len, NDD_MAX_SHINGLE + 1, &h, NDD_TOKENIZER_WORDS, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_simhash_chars(d, len, 0, &h, NDD_TOKENIZER_WORDS, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_shingle_minhash(d, len, 4, 0, sketch, NDD_TOKENIZER_WORDS, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_shingle_minhash(d, len, 4, NDD_MAX_MINHASHES + 1, sketch, NDD_TOKENIZER_WORDS, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_shingle_minhash(d, len, -1, 84, sketch, NDD_TOKENIZER_WORDS, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_supershingles(sketch, 84, 5, sketch + 100), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_supershingles(sketch, 84, 0, sketch + 100), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_supershingles(sketch, 84, 85, sketch + 100), NDD_INVALID_ARGUMENT);
    double sim;
    EXPECT_EQ(ndd_fp_minhash_similarity(sketch, sketch, 0, &sim), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_bitflip_fp(d, len, 0, 128, &fp, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_bitflip_fp(d, len, 64, NDD_MAX_BITFLIP_SAMPLES + 1, &fp, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_word_list_fingerprints(d, len, 0, sketch, &n, NDD_TOKENIZER_WORDS, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_word_list_fingerprints(d, len, NDD_MAX_WORD_LISTS + 1, sketch, &n, NDD_TOKENIZER_WORDS, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_shingle_overlap(d, len, d, len, 0, &o, NDD_TOKENIZER_WORDS, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_simhash_text(nullptr, 5, 1, &h, NDD_TOKENIZER_WORDS, nullptr), NDD_INVALID_ARGUMENT);
    EXPECT_EQ(ndd_fp_simhash_text(nullptr, 0, 1, &h, NDD_TOKENIZER_WORDS, nullptr), NDD_OK) << "an empty text may come without a buffer";
}

TEST(FingerprintApi, ResultsThroughTheBoundary) {
    const std::string a = "The quick brown fox jumps over the lazy dog", b = "the quick brown fox jumped over the lazy dog";
    NddShingleOverlap o;
    ASSERT_EQ(ndd_fp_shingle_overlap(a.data(), a.size(), b.data(), b.size(), 4, &o, NDD_TOKENIZER_WORDS, nullptr), NDD_OK);
    EXPECT_EQ(o.size_a, 6);
    EXPECT_EQ(o.inter, 2);  // the 4 shingles holding "jumps" differ
    EXPECT_DOUBLE_EQ(o.jaccard, 2.0 / 10);
    EXPECT_DOUBLE_EQ(o.containment, 2.0 / 6);
    int64_t d;
    ASSERT_EQ(ndd_fp_word_edit_distance(a.data(), a.size(), b.data(), b.size(), 1, &d, NDD_TOKENIZER_WORDS, nullptr), NDD_OK);
    EXPECT_EQ(d, 1);
    ASSERT_EQ(ndd_fp_word_edit_distance(a.data(), a.size(), b.data(), b.size(), 2, &d, NDD_TOKENIZER_WORDS, nullptr), NDD_OK);
    EXPECT_EQ(d, 2);
    EXPECT_EQ(ndd_fp_word_edit_distance(a.data(), a.size(), b.data(), b.size(), 3, &d, NDD_TOKENIZER_WORDS, nullptr), NDD_INVALID_ARGUMENT);

    int64_t s1[84], s2[84], f1[6], f2[6];
    ASSERT_EQ(ndd_fp_shingle_minhash(a.data(), a.size(), 4, 84, s1, NDD_TOKENIZER_WORDS, nullptr), NDD_OK);
    ASSERT_EQ(ndd_fp_shingle_minhash(a.data(), a.size(), 4, 84, s2, NDD_TOKENIZER_WORDS, nullptr), NDD_OK);
    double sim;
    ASSERT_EQ(ndd_fp_minhash_similarity(s1, s2, 84, &sim), NDD_OK);
    EXPECT_EQ(sim, 1.0);
    ASSERT_EQ(ndd_fp_supershingles(s1, 84, 6, f1), NDD_OK);
    ASSERT_EQ(ndd_fp_supershingles(s2, 84, 6, f2), NDD_OK);
    int32_t shared;
    ASSERT_EQ(ndd_fp_features_shared(f1, 6, f2, 6, &shared, nullptr), NDD_OK);
    EXPECT_EQ(shared, 6);

    const char* items[] = {"quick", "brown"};
    size_t lens[] = {5, 5};
    uint64_t h1, h2;
    ASSERT_EQ(ndd_fp_simhash_features(2, items, lens, nullptr, &h1, nullptr), NDD_OK);
    ASSERT_EQ(ndd_fp_simhash_text("Quick, brown!", 13, 1, &h2, NDD_TOKENIZER_WORDS, nullptr), NDD_OK);
    EXPECT_EQ(h1, h2);
    ASSERT_EQ(ndd_fp_simhash_sequence(2, items, lens, 2, &h1, nullptr), NDD_OK);
    ASSERT_EQ(ndd_fp_simhash_text("Quick, brown!", 13, 2, &h2, NDD_TOKENIZER_WORDS, nullptr), NDD_OK);
    EXPECT_EQ(h1, h2) << "a sequence of items shingles like a text";
}

TEST(FingerprintApi, TokensAreAllocatedByTheCaller) {
    NddTokens t;
    const char* d = "Hello, big World";
    ASSERT_EQ(ndd_fp_tokens(d, strlen(d), tracking_alloc, &t, NDD_TOKENIZER_WORDS, nullptr), NDD_OK);
    ASSERT_EQ(t.count, 3u);
    EXPECT_EQ(std::string(t.text, t.text_len), "hello big world");
    EXPECT_EQ(t.starts[0], 0u);
    EXPECT_EQ(t.starts[1], 6u);
    EXPECT_EQ(t.starts[2], 10u);
    EXPECT_EQ(g_allocated.size(), 2u);
    free_tracked();
    ASSERT_EQ(ndd_fp_tokens("", 0, tracking_alloc, &t, NDD_TOKENIZER_WORDS, nullptr), NDD_OK);
    EXPECT_EQ(t.count, 0u);
    EXPECT_EQ(t.text, nullptr);
    EXPECT_EQ(ndd_fp_tokens(d, strlen(d), failing_alloc, &t, NDD_TOKENIZER_WORDS, nullptr), NDD_OUT_OF_MEMORY);
    EXPECT_EQ(ndd_fp_tokens(d, strlen(d), nullptr, &t, NDD_TOKENIZER_WORDS, nullptr), NDD_INVALID_ARGUMENT);
}

TEST(FingerprintApi, LongWorkPollsAndCanBeCancelled) {
    const std::string doc = big_text(8 << 20);
    uint64_t h;
    int64_t sketch[84];
    NddFp128 fp;
    int32_t n;
    NddShingleOverlap o;
    int64_t d;

    struct Case {
        const char* name;
        std::function<NddStatus()> run;
    };
    std::vector<Case> cases = {
        {"simhash", [&] { return ndd_fp_simhash_text(doc.data(), doc.size(), 1, &h, NDD_TOKENIZER_WORDS, counting_interrupt); }},
        {"simhash_chars", [&] { return ndd_fp_simhash_chars(doc.data(), doc.size(), 4, &h, NDD_TOKENIZER_WORDS, counting_interrupt); }},
        {"shingle_minhash", [&] { return ndd_fp_shingle_minhash(doc.data(), doc.size(), 4, 84, sketch, NDD_TOKENIZER_WORDS, counting_interrupt); }},
        {"bitflip_fp", [&] { return ndd_fp_bitflip_fp(doc.data(), doc.size(), 64, 128, &fp, counting_interrupt); }},
        {"word_list_fingerprints",
         [&] { return ndd_fp_word_list_fingerprints(doc.data(), doc.size(), 4, sketch, &n, NDD_TOKENIZER_WORDS, counting_interrupt); }},
        {"content_hash", [&] { return ndd_fp_content_hash(doc.data(), doc.size(), &fp, NDD_TOKENIZER_WORDS, counting_interrupt); }},
        {"shingle_overlap",
         [&] { return ndd_fp_shingle_overlap(doc.data(), doc.size(), doc.data(), doc.size(), 4, &o, NDD_TOKENIZER_WORDS, counting_interrupt); }},
    };
    for (const auto& c : cases) {
        reset_interrupt(-1);
        EXPECT_EQ(c.run(), NDD_OK) << c.name;
        EXPECT_GE(g_polls, 20) << c.name << " must poll while it works through 8 MB";
        int total = g_polls;
        reset_interrupt(total / 2);
        EXPECT_EQ(c.run(), NDD_CANCELLED) << c.name;
        EXPECT_EQ(g_polls, total / 2 + 1) << c.name << " stops at the first poll that says so";
    }

    // Edit distance of two unrelated long texts is quadratic: it must poll and stop.
    const std::string x = big_text(200000), y = big_text(200001).substr(7);
    reset_interrupt(3);
    EXPECT_EQ(ndd_fp_word_edit_distance(x.data(), x.size(), y.data(), y.size(), 1, &d, NDD_TOKENIZER_WORDS, counting_interrupt), NDD_CANCELLED);
}

}  // namespace
