"""What writing validate --svg's pictures costs the parent: an `OutputFile` a picture (as
`write_whole` wrote them before session 53) against `write_whole` (its short way for a new or
plain file), turn about, each round into a new folder three levels down a temporary folder,
pictures of 30 KB (a heavy game's).

    python scripts/picture_writes.py [PICTURES] [ROUNDS] [--in DIR]

Prints the µs a picture of each, best and median of the rounds. The file system's own cost
(creating a file) is in both and varies with it: on this machine's ext4, the first files of a
folder made after many were removed cost far more (the kernel looks past recently freed
inodes), so compare the two within a run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time

from neweden.runners.outputs import OutputFile, write_whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pictures", type=int, nargs="?", default=2000)
    parser.add_argument("rounds", type=int, nargs="?", default=5)
    parser.add_argument("--in", dest="where", default=None, help="the folder to write under")
    args = parser.parse_args()
    data = b"<svg>" + b"x" * 30_000 + b"</svg>"
    names = [f"games.jsonl_L{i}-{i:012x}.svg" for i in range(args.pictures)]
    root = tempfile.mkdtemp(dir=args.where)
    times: dict[str, list[float]] = {"OutputFile": [], "write_whole": []}
    try:
        for r in range(args.rounds):
            for way in times:
                folder = os.path.join(root, "a", "b", f"{way}-{r}")
                os.makedirs(folder)
                start = time.perf_counter()
                for name in names:
                    if way == "OutputFile":
                        output = OutputFile(os.path.join(folder, name))
                        output.write(data)
                        output.commit()
                    else:
                        write_whole(os.path.join(folder, name), data)
                times[way].append((time.perf_counter() - start) / len(names) * 1e6)
    finally:
        shutil.rmtree(root)
    for way, found in times.items():
        found.sort()
        print(f"{way}: best {found[0]:.1f} µs, median {found[len(found) // 2]:.1f} µs a picture")


if __name__ == "__main__":
    main()
