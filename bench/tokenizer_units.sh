#!/usr/bin/env bash
# bench/tokenizer_units.sh: how the 'unicode' tokenizer cuts ideographs, kana and Hangul, measured
# on the real documents of test/data/scripts.jsonl and their 2 % edited copies (see
# bench/tokenizer_units.cpp); raw output in bench/results/tokenizer_units.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
g++ -std=c++17 -O2 -Isrc/core -Itest/unit -o build/tokenizer_units bench/tokenizer_units.cpp \
	test/unit/corpus_reader.cpp src/core/*.cpp -lxxhash -licuuc
build/tokenizer_units test/data
