// bench/jaccard_synth.cpp N SEED corpus.jsonl.gz... > docs.tsv, planted pairs to $PLANTED:
// bench/jaccard_synth.py in C++, byte for byte (same seed, same documents, same planted pairs),
// so that generating 10M documents (~12 GB of text) is not the bottleneck of the scaling run of
// ndd_jaccard_pairs (the Python takes about a minute of CPU per million documents; this, a few
// seconds). bench/jaccard_synth_check.sh compares the two outputs.
//
// What "the same" takes, from the Python it mirrors:
//   - the texts: gzip (zlib) JSON lines (RapidJSON, Debian's rapidjson-dev: \u escapes and
//     surrogate pairs decoded as json.loads does), split as str.split() splits: on the code points
//     for which str.isspace() is true (the table below, Python 3.11's), runs of them as one;
//   - random.Random(SEED): MT19937 seeded by init_by_array with the seed's 32-bit words;
//     random() = (a >> 5, b >> 6) of two outputs as a 53-bit fraction; choice(seq) = seq[r] with
//     r = getrandbits(bit_length(len)) redrawn while r >= len (random._randbelow_with_getrandbits),
//     getrandbits(k <= 32) = output >> (32 - k);
//   - the same draws in the same order: per base, when reused, one random() per word and a choice()
//     after each draw below 0.5; then one random() per word of the copy and a choice() after each
//     draw below the rate.
// Build: g++ -std=c++17 -O2 -o build/jaccard_synth bench/jaccard_synth.cpp -lz
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <zlib.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

[[noreturn]] void die(const std::string& msg) {
    std::fprintf(stderr, "jaccard_synth: %s\n", msg.c_str());
    std::exit(1);
}

// Python's random.Random: the Mersenne Twister MT19937 (Matsumoto and Nishimura, 1998).
class PyRandom {
public:
    explicit PyRandom(uint64_t seed) {
        // random.seed(int): init_by_array over the 32-bit words of abs(seed), least significant first
        std::vector<uint32_t> key{static_cast<uint32_t>(seed)};
        if (seed >> 32) key.push_back(static_cast<uint32_t>(seed >> 32));
        init_by_array(key);
    }

    uint32_t next32() {
        if (i_ >= kN) twist();
        uint32_t y = mt_[i_++];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= y >> 18;
        return y;
    }

    double random() {
        uint32_t a = next32() >> 5, b = next32() >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }

    // random._randbelow_with_getrandbits(n), 0 < n < 2^32
    uint32_t below(uint32_t n) {
        int k = 32 - __builtin_clz(n);  // n.bit_length()
        uint32_t r = next32() >> (32 - k);
        while (r >= n) r = next32() >> (32 - k);
        return r;
    }

private:
    static constexpr int kN = 624, kM = 397;
    uint32_t mt_[kN];
    int i_ = kN + 1;

    void init_genrand(uint32_t s) {
        mt_[0] = s;
        for (int i = 1; i < kN; i++) mt_[i] = 1812433253U * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + static_cast<uint32_t>(i);
        i_ = kN;
    }

    void init_by_array(const std::vector<uint32_t>& key) {
        init_genrand(19650218U);
        int i = 1, j = 0;
        int len = static_cast<int>(key.size());
        for (int k = kN > len ? kN : len; k; k--) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525U)) + key[j] + static_cast<uint32_t>(j);
            i++;
            j++;
            if (i >= kN) {
                mt_[0] = mt_[kN - 1];
                i = 1;
            }
            if (j >= len) j = 0;
        }
        for (int k = kN - 1; k; k--) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941U)) - static_cast<uint32_t>(i);
            i++;
            if (i >= kN) {
                mt_[0] = mt_[kN - 1];
                i = 1;
            }
        }
        mt_[0] = 0x80000000U;
    }

    void twist() {
        for (int k = 0; k < kN; k++) {
            uint32_t y = (mt_[k] & 0x80000000U) | (mt_[(k + 1) % kN] & 0x7fffffffU);
            mt_[k] = mt_[(k + kM) % kN] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        }
        i_ = 0;
    }
};

// str.isspace() in Python 3.11: the whitespace str.split() splits on.
bool py_space(uint32_t c) {
    return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

// The code point at s[i] (valid UTF-8: json.loads' output) and its length in bytes.
uint32_t utf8_at(const unsigned char* s, size_t n, size_t i, size_t* len) {
    unsigned char c = s[i];
    if (c < 0x80) {
        *len = 1;
        return c;
    }
    int extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
    if (i + extra >= n) die("truncated UTF-8 in a text");
    uint32_t cp = c & (0x3f >> extra);
    for (int k = 1; k <= extra; k++) cp = (cp << 6) | (s[i + k] & 0x3f);
    *len = static_cast<size_t>(extra) + 1;
    return cp;
}

// A word as written: its bytes, every backslash already made a space (the Python replaces them in
// the joined text; tabs and newlines cannot be in a word).
struct Word {
    uint64_t offset : 40;  // in the arena
    uint64_t len : 24;
};

struct Corpus {
    std::string arena;         // every word, back to back
    std::vector<Word> words;   // all texts' words in order
    std::vector<size_t> pieces;  // first word of each 170-word piece
    std::vector<Word> vocab;   // the first 200 words of each text
};

constexpr size_t kPiece = 170;
constexpr size_t kVocabPerText = 200;

void add_text(Corpus& c, const char* text, size_t n) {
    const auto* s = reinterpret_cast<const unsigned char*>(text);
    size_t first = c.words.size();
    size_t i = 0;
    while (i < n) {
        size_t len;
        while (i < n && py_space(utf8_at(s, n, i, &len))) i += len;
        if (i >= n) break;
        size_t start = i;
        while (i < n && !py_space(utf8_at(s, n, i, &len))) i += len;
        if (c.arena.size() + (i - start) >= (uint64_t(1) << 40) || i - start >= (1U << 24)) die("corpus too large");
        c.words.push_back(Word{c.arena.size(), i - start});
        for (size_t k = start; k < i; k++) c.arena.push_back(text[k] == '\\' ? ' ' : text[k]);
    }
    size_t count = c.words.size() - first;
    for (size_t k = 0; k < count && k < kVocabPerText; k++) c.vocab.push_back(c.words[first + k]);
    // range(0, len(words) - 170, 170)
    for (size_t k = 0; k + kPiece < count; k += kPiece) c.pieces.push_back(first + k);
}

void read_corpus(Corpus& c, const char* path) {
    gzFile f = gzopen(path, "rb");
    if (!f) die(std::string("cannot open ") + path);
    gzbuffer(f, 1 << 20);
    std::string line, pending;
    std::vector<char> buf(1 << 20);
    auto parse = [&](std::string& l) {
        if (l.empty()) return;
        rapidjson::Document d;
        d.Parse(l.data(), l.size());
        if (d.HasParseError())
            die(std::string(path) + ": " + rapidjson::GetParseError_En(d.GetParseError()));
        auto it = d.FindMember("text");
        if (!d.IsObject() || it == d.MemberEnd() || !it->value.IsString()) die(std::string(path) + ": a line without a text");
        add_text(c, it->value.GetString(), it->value.GetStringLength());
    };
    for (;;) {
        int got = gzread(f, buf.data(), static_cast<unsigned>(buf.size()));
        if (got < 0) die(std::string("cannot read ") + path);
        if (got == 0) break;
        const char* p = buf.data();
        const char* end = p + got;
        while (p < end) {
            const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
            if (!nl) {
                pending.append(p, static_cast<size_t>(end - p));
                break;
            }
            pending.append(p, static_cast<size_t>(nl - p));
            parse(pending);
            pending.clear();
            p = nl + 1;
        }
    }
    parse(pending);
    gzclose(f);
}

// A buffered writer of one stream.
class Out {
public:
    explicit Out(FILE* f) : f_(f), buf_(kSize + kSlack) {}
    // room for n more bytes (n <= kSlack)
    char* room() {
        if (at_ >= kSize) flush();
        return buf_.data() + at_;
    }
    void advance(char* to) { at_ = static_cast<size_t>(to - buf_.data()); }
    void flush() {
        if (at_ > 0 && std::fwrite(buf_.data(), 1, at_, f_) != at_) die(std::string("write failed: ") + std::strerror(errno));
        at_ = 0;
    }
    static constexpr size_t kSlack = size_t(1) << 20;  // a line at most (170 words, each < 4 kB here)

private:
    static constexpr size_t kSize = size_t(4) << 20;
    FILE* f_;
    std::vector<char> buf_;
    size_t at_ = 0;
};

char* put_u64(char* p, uint64_t v) {
    char tmp[24];
    int n = 0;
    do tmp[n++] = static_cast<char>('0' + v % 10);
    while (v /= 10);
    while (n) *p++ = tmp[--n];
    return p;
}

// "id<TAB>" " ".join(words) "\n"
void put_line(Out& out, const Corpus& c, uint64_t id, const Word* w) {
    size_t need = 24;
    for (size_t k = 0; k < kPiece; k++) need += w[k].len + 1;
    if (need > Out::kSlack) die("a line longer than the output buffer");
    char* p = put_u64(out.room(), id);
    *p++ = '\t';
    for (size_t k = 0; k < kPiece; k++) {
        if (k) *p++ = ' ';
        std::memcpy(p, c.arena.data() + w[k].offset, w[k].len);
        p += w[k].len;
    }
    *p++ = '\n';
    out.advance(p);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) die("usage: PLANTED=file jaccard_synth N SEED corpus.jsonl.gz...");
    uint64_t n = std::strtoull(argv[1], nullptr, 10);
    uint64_t seed = std::strtoull(argv[2], nullptr, 10);
    const char* planted_path = std::getenv("PLANTED");
    if (!planted_path) die("PLANTED names no file");
    Corpus c;
    for (int i = 3; i < argc; i++) read_corpus(c, argv[i]);
    if (c.pieces.empty()) die("no text of more than 170 words");
    if (c.vocab.size() >= (uint64_t(1) << 32)) die("vocabulary too large");
    FILE* pf = std::fopen(planted_path, "w");
    if (!pf) die(std::string("cannot write ") + planted_path);
    PyRandom rng(seed);
    static const double rates[] = {0.01, 0.02, 0.05, 0.10, 0.20};
    static const char* const rate_text[] = {"0.01", "0.02", "0.05", "0.1", "0.2"};  // str(rate)
    const uint32_t nvocab = static_cast<uint32_t>(c.vocab.size());
    std::vector<Word> words(kPiece), copy(kPiece);
    Out out(stdout), planted(pf);
    for (uint64_t b = 0; b < n / 2; b++) {
        const Word* piece = c.words.data() + c.pieces[b % c.pieces.size()];
        std::copy(piece, piece + kPiece, words.begin());
        if (b >= c.pieces.size())  // more bases than pieces: the reuse made a different text
            for (size_t k = 0; k < kPiece; k++)
                if (rng.random() < 0.5) words[k] = c.vocab[rng.below(nvocab)];
        double rate = rates[b % 5];
        for (size_t k = 0; k < kPiece; k++) copy[k] = rng.random() < rate ? c.vocab[rng.below(nvocab)] : words[k];
        put_line(out, c, 2 * b, words.data());
        put_line(out, c, 2 * b + 1, copy.data());
        char* p = put_u64(planted.room(), 2 * b);
        *p++ = '\t';
        p = put_u64(p, 2 * b + 1);
        *p++ = '\t';
        for (const char* r = rate_text[b % 5]; *r; r++) *p++ = *r;
        *p++ = '\n';
        planted.advance(p);
    }
    out.flush();
    planted.flush();
    if (std::fflush(stdout) != 0 || std::fclose(pf) != 0) die(std::string("write failed: ") + std::strerror(errno));
    return 0;
}
