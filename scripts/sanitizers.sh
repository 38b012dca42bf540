#!/usr/bin/env bash
# The C++ unit tests, then the whole Python suite, with the core built under
# AddressSanitizer and UndefinedBehaviorSanitizer (gcc). Any report fails the run.
#   scripts/sanitizers.sh            (a few minutes; CI runs the C++ half)
#   scripts/sanitizers.sh --cpp-only
set -euo pipefail
cd "$(dirname "$0")/.."
flags=address,undefined
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

echo "== C++ tests of the core under ASan + UBSan"
cmake -S . -B build/asan -DNEWEDEN_BUILD_TESTS=ON -DNEWEDEN_SANITIZE="$flags" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/asan -j 2 >/dev/null
ctest --test-dir build/asan --output-on-failure | tail -n 3
[ "${1:-}" = "--cpp-only" ] && exit 0

echo "== the Python suite with the module under ASan + UBSan"
rm -rf build/asan-venv
python3 -m venv build/asan-venv
# shellcheck disable=SC1091
. build/asan-venv/bin/activate
python -m pip install -q --upgrade pip
python -m pip install -q ".[test]" -Ccmake.define.NEWEDEN_SANITIZE="$flags" \
  -Ccmake.build-type=RelWithDebInfo -Cinstall.strip=false
# Python itself is not built with ASan: preload the runtimes; CPython's own allocations
# are not leaks to report here.
LD_PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)" \
ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 \
  python -m pytest -q -p no:cacheprovider tests -m "" -k "not browser" 2>&1 | tail -n 3
