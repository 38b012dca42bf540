#!/usr/bin/env bash
# libFuzzer over the C++ core (cpp/fuzz/fuzz_core.cpp), built with clang, ASan and UBSan.
#   scripts/fuzz-core.sh [RUNS]     (default 1,000,000 executions; CI runs a short one)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-1000000}"
CC=clang CXX=clang++ cmake -S . -B build/fuzz -DNEWEDEN_FUZZ=ON \
  -DNEWEDEN_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/fuzz --target neweden_fuzz_core -j 2 >/dev/null
mkdir -p build/fuzz/corpus-core
# cpp/fuzz/seeds: games as JSON, so the strict reader of cities starts from documents it
# reads (new inputs go to the first folder).
./build/fuzz/neweden_fuzz_core -runs="$runs" -max_len=2048 -timeout=10 \
  build/fuzz/corpus-core cpp/fuzz/seeds 2>&1 | tail -n 4
