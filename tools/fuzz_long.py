"""The long parser fuzz run (issue 9; outside CI): ``python tools/fuzz_long.py --n 100000``.

Feeds ``--n`` oracle-like faces through ``check_face`` of ``tests/test_fuzz_parser.py``:
``parse_face`` and ``parse_line`` must not raise, and every input line's text must be kept in
the AST (see that module's docstring). The faces come from the same recipe as the CI
hypothesis test (real Oracle lines of the bundled snapshot cut into lines, clauses, words and
symbols, recombined, mutated, truncated, mixed with hostile characters), driven here by
``random.Random(seed)`` for seeds ``--seed`` … ``--seed + n - 1``: hypothesis's bookkeeping
would cost more than the parser, and a seed reproduces a face exactly
(``face_from_seed(seed)``). A failure is recorded (seed, input, error) and the run goes on.

Prints progress to stderr and a JSON summary (inputs, seconds, failures, ability kinds,
unparsed share) to stdout, also written to ``--out``. Exit code 1 when any input failed.
One core: ``nice python tools/fuzz_long.py --n 100000 --out fuzz-long.json``.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.test_fuzz_parser import check_face, face_from_seed  # noqa: E402


def run(n: int, first_seed: int, progress, every: int = 5000) -> dict:
    """Check the faces of seeds ``first_seed`` … ``first_seed + n - 1``; return the summary dict."""
    kinds: collections.Counter = collections.Counter()
    abilities = unparsed = lines = chars = 0
    failures: list[dict] = []
    t0 = time.perf_counter()
    for i in range(n):
        seed = first_seed + i
        face = face_from_seed(seed)
        lines += face[0].count("\n") + 1
        chars += len(face[0])
        try:
            result = check_face(*face)
        except Exception as exc:  # noqa: BLE001 - record every failure and go on
            failures.append({"seed": seed, "input": face,
                             "error": "".join(traceback.format_exception_only(type(exc), exc)).strip()[:2000]})
            continue
        abilities += len(result)
        unparsed += sum(not a.fully_parsed for a in result)
        kinds.update(a.kind for a in result)
        if (i + 1) % every == 0:
            progress(i + 1, time.perf_counter() - t0, len(failures))
    seconds = time.perf_counter() - t0
    return {
        "inputs": n,
        "seeds": [first_seed, first_seed + n - 1],
        "seconds": round(seconds, 1),
        "inputs_per_second": round(n / seconds, 1) if seconds else None,
        "input_lines": lines,
        "input_chars": chars,
        "abilities": abilities,
        "unparsed_abilities": unparsed,
        "kinds": dict(kinds.most_common()),
        "failures": failures,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100_000, help="inputs to run (default 100000)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--out", type=Path, default=None, help="also write the JSON summary here")
    args = ap.parse_args(argv)

    def progress(done, seconds, failed):
        print(f"{done} inputs, {seconds:.0f}s, {failed} failures", file=sys.stderr, flush=True)

    summary = run(args.n, args.seed, progress)
    text = json.dumps(summary, indent=1, ensure_ascii=False)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 1 if summary["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
