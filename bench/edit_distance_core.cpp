// edit_distance_core.cpp: the character edit distance in the core alone (the C entry point the SQL
// function calls), in CPU time per pair (clock(): the process's own time, so a machine shared with
// other work inflates it less than wall time). Pairs: random text over 29 letters and spaces, the
// second a number of random single-character edits of the first, or unrelated. Run by
// bench/edit_distance.sh.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>

#include "distance_api.h"

namespace {

std::string random_text(std::mt19937_64& rng, size_t len) {
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz   ";
    std::string s(len, ' ');
    for (auto& c : s) c = alphabet[rng() % 29];
    return s;
}

std::string edited(std::mt19937_64& rng, std::string s, int edits) {
    for (int e = 0; e < edits; e++) {
        size_t p = rng() % s.size();
        char c = static_cast<char>('a' + rng() % 26);
        switch (rng() % 3) {
            case 0: s[p] = c; break;
            case 1: s.insert(s.begin() + static_cast<long>(p), c); break;
            default: s.erase(s.begin() + static_cast<long>(p)); break;
        }
    }
    return s;
}

void measure(const char* what, size_t len, int edits, long bound, int cost, int reps) {
    std::mt19937_64 rng(28);
    std::string a = random_text(rng, len);
    std::string b = edits < 0 ? random_text(rng, len) : edited(rng, a, edits);
    NddEditDistance out{};
    clock_t start = clock();
    for (int r = 0; r < reps; r++)
        if (ndd_edit_distance(a.data(), a.size(), b.data(), b.size(), cost, bound, &out, nullptr) != NDD_OK) std::abort();
    double us = static_cast<double>(clock() - start) * 1e6 / CLOCKS_PER_SEC / reps;
    std::printf("%-44s distance %6ld  %10.1f us CPU per pair\n", what, static_cast<long>(out.distance), us);
}

}  // namespace

int main() {
    measure("255 chars, 20 edits, cost 1", 255, 20, -1, 1, 20000);
    measure("255 chars, unrelated, cost 1", 255, -1, -1, 1, 20000);
    measure("255 chars, unrelated, cost 2", 255, -1, -1, 2, 20000);
    measure("100,000 chars, 400 edits, max 1000", 100000, 400, 1000, 1, 20);
    measure("100,000 chars, 400 edits, no max", 100000, 400, -1, 1, 20);
    measure("100,000 chars, 400 edits, cost 2, max 2000", 100000, 400, 2000, 2, 20);
    measure("100,000 chars, 700 edits, max 1000", 100000, 700, 1000, 1, 20);
    measure("100,000 chars, unrelated, max 1000", 100000, -1, 1000, 1, 20);
    return 0;
}
