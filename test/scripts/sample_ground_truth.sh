#!/usr/bin/env bash
# test/scripts/sample_ground_truth.sh: the ground truth checked in beside the shipped sample
# (test/data/sample.pairs.k*.tsv) is what test/data/ground_truth.py computes from
# test/data/sample.jsonl today: neither the documents nor the truth drifted apart. Needs python3 only.
set -euo pipefail
python3 "$(dirname "$0")/../data/ground_truth.py" --check
