#!/usr/bin/env bash
# bench/jaccard_synth_build.sh: builds build/jaccard_synth, the C++ generator of the synthetic
# collections (bench/jaccard_synth.cpp; zlib and RapidJSON, Debian's zlib1g-dev and rapidjson-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
g++ -std=c++17 -O2 -Wall -Wextra -o build/jaccard_synth bench/jaccard_synth.cpp -lz
