#!/usr/bin/env bash
# Every output of fixed inputs, to compare two trees byte for byte (`cmp`):
#
#   scripts/outputs_snapshot.sh --inputs IN          # once: the inputs, made by this checkout
#   scripts/outputs_snapshot.sh VENV-A IN OUT-A      # each tree installed in its own venv
#   scripts/outputs_snapshot.sh VENV-B IN OUT-B
#   scripts/outputs_snapshot.sh --compare OUT-A OUT-B
#
# The outputs: the report corpus (scripts/report_corpus.py: lean and detailed reports, text
# tables, SVGs of 1,500 generated games and every example), `validate` of the generated
# games, of a mix heavy with mistakes (bench/mixes.py) and of the examples (--out, --csv,
# --detail, --csv-sep ';', --only-invalid, standard output, the pictures of --svg and their
# index, the page of --html with and without --svg) in English and Portuguese, and
# --parquet with 1 and 2 jobs,
# `score` of every example (JSON and text), the game's and the lone city's JSON Schemas, the
# OpenAPI document, and the placements of 4,050 questions (scripts/placements_corpus.py). `--compare` cmps every file,
# standard output with its timing (" in 0.4 s (8,356 games/s)") taken out.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
if [ "$1" = "--inputs" ]; then
  mkdir -p "$2/examples"
  cp "$here"/examples/*.json "$2/examples/"
  cp "$here/scripts/report_corpus.py" "$2/corpus.py"
  cp "$here/scripts/placements_corpus.py" "$2/placements_corpus.py"
  python "$here/scripts/placements_corpus.py" --questions "$2/placements.json"
  python "$here/scripts/report_corpus.py" /dev/null 1500 --jsonl "$2/games.jsonl" >/dev/null
  (cd "$here" && python -c "
from bench.mixes import mistaken_games
open('$2/heavy.jsonl', 'wb').write(b'\n'.join(mistaken_games(3000, 7)) + b'\n')")
  exit 0
fi
timing='s/ (in|em) [0-9.,]+ (s|ms|min)( \([0-9.,]+ [a-z/]+\))?//'
if [ "$1" = "--compare" ]; then
  bad=0
  for f in "$2"/*; do
    g="$3/$(basename "$f")"
    case "$f" in
      *stdout*) cmp -s <(sed -E "$timing" "$f") <(sed -E "$timing" "$g") || { echo "differ: $f"; bad=1; } ;;
      *) cmp "$f" "$g" || bad=1 ;;
    esac
  done
  echo "files: $(ls "$2" | wc -l); differing: $bad"
  exit "$bad"
fi
venv=$1; in=$(cd "$2" && pwd); out=$3
rm -rf "$out"; mkdir -p "$out"; out=$(cd "$out" && pwd)
export NO_COLOR=1 COLUMNS=100
cd /tmp
"$venv/bin/python" "$in/corpus.py" "$out/corpus.txt" 1500 >/dev/null
for lang in en pt-BR; do
  for f in games heavy examples; do
    src="$in/$f.jsonl"; [ "$f" = examples ] && src="$in/examples"
    "$venv/bin/neweden" validate "$src" --lang "$lang" --jobs 2 --out "$out/$f.$lang.out" \
      --csv "$out/$f.$lang.csv" >"$out/$f.$lang.stdout" 2>&1 || true
    "$venv/bin/neweden" validate "$src" --lang "$lang" --jobs 1 --detail \
      --out "$out/$f.$lang.detail" --csv "$out/$f.$lang.semi.csv" --csv-sep ';' \
      --only-invalid >"$out/$f.$lang.stdout2" 2>&1 || true
    # the pictures of --svg (each file named, in name order, hidden ones too) with its index
    # and the page of --html beside them, then a page of --html alone (its pictures inside)
    # (each run's standard output, error and exit status kept too: a run that failed alike in
    # both trees must not compare equal for want of files)
    ran="$out/$f.$lang.pictures.stdout"
    rc=0
    "$venv/bin/neweden" validate "$src" --lang "$lang" --jobs 2 --quiet --svg "$out/pictures" \
      --html "$out/$f.$lang.html" >"$ran" 2>&1 || rc=$?
    echo "exit status $rc" >>"$ran"
    (cd "$out/pictures" && for p in $(ls -A | sort); do echo "== $p"; cat "$p"; echo; done) \
      >"$out/$f.$lang.svg"
    rm -rf "$out/pictures"
    rc=0
    "$venv/bin/neweden" validate "$src" --lang "$lang" --jobs 1 --quiet \
      --html "$out/$f.$lang.inline.html" >>"$ran" 2>&1 || rc=$?
    echo "exit status $rc" >>"$ran"
    if [ "$lang" = en ]; then  # (the table has no words: one language)
      for jobs in 1 2; do
        "$venv/bin/neweden" validate "$src" --quiet --jobs "$jobs" --parquet "$out/pq" \
          >/dev/null 2>&1 || true
        mv "$out/pq/part-00000.parquet" "$out/$f.jobs$jobs.parquet" 2>/dev/null || true
        rm -rf "$out/pq"
      done
    fi
  done
  for e in "$in"/examples/*.json; do
    name=$(basename "$e")
    "$venv/bin/neweden" score "$e" --lang "$lang" >"$out/score.$name.$lang.txt" 2>&1 || true
    "$venv/bin/neweden" score "$e" --lang "$lang" --format text >"$out/score.$name.$lang.text" 2>&1 || true
  done
  "$venv/bin/neweden" schema --lang "$lang" >"$out/schema.$lang.json" 2>&1 || true
  "$venv/bin/neweden" schema --city --lang "$lang" >"$out/schema-city.$lang.json" 2>&1 || true
done
"$venv/bin/python" -c "
import sys, msgspec
try:
    from neweden.http.api_types import openapi
except ImportError:
    from neweden.http.openapi import openapi
sys.stdout.buffer.write(msgspec.json.encode(openapi('0')))" >"$out/openapi.json"
if [ -f "$in/placements.json" ]; then  # (inputs made before the placements were added: none)
  "$venv/bin/python" "$in/placements_corpus.py" "$in/placements.json" "$out/placements.jsonl"
fi
