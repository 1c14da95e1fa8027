"""An unchanged refresh: decided from size + mtime without reading the files, and without heavy imports."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys

from pipeline.refresh import refresh
from pipeline.sources.version import source_state
from tests.conftest import MTGJSON_DIR, ROOT, rows


def _two_sets(tmp_path):
    src = tmp_path / "sets"
    src.mkdir()
    for code in ("LEA", "ARN"):
        shutil.copy(MTGJSON_DIR / f"{code}.json.gz", src / f"{code}.json.gz")
    return src


def test_files_with_the_recorded_size_and_mtime_are_not_read(tmp_path):
    src = _two_sets(tmp_path)
    first = source_state([src])
    assert first.hashed == 2 and first.version.startswith("5.2.0+20220425+sha256:")
    known = {s.path: s for s in first.files}
    again = source_state([src], known)
    assert again.hashed == 0 and again.version == first.version
    # a touched file (new mtime, same bytes) is hashed again and keeps the version
    os.utime(src / "ARN.json.gz", ns=(1_000_000_000, 1_000_000_000))
    touched = source_state([src], known)
    assert touched.hashed == 1 and touched.version == first.version
    # a changed file changes the version
    data = gzip.decompress((src / "ARN.json.gz").read_bytes()).replace(b'"Bazaar of Baghdad"', b'"Bazaar of Baghdat"')
    (src / "ARN.json.gz").write_bytes(gzip.compress(data))
    changed = source_state([src], known)
    assert changed.hashed == 1 and changed.version != first.version


def test_same_size_and_mtime_is_trusted_and_force_rebuilds(tmp_path):
    src = tmp_path / "sets"
    src.mkdir()
    for code in ("LEA", "ARN"):  # plain JSON set files: an edit can keep the size exactly
        (src / f"{code}.json").write_bytes(gzip.decompress((MTGJSON_DIR / f"{code}.json.gz").read_bytes()))
    db = tmp_path / "cards.duckdb"
    assert refresh([src], db).status == "ok"
    assert refresh([src], db).status == "unchanged"
    # other bytes of the same size, mtime put back: trusted without reading (documented trade-off)
    arn = src / "ARN.json"
    st = arn.stat()
    arn.write_bytes(arn.read_bytes().replace(b'"name": "Bazaar of Baghdad"', b'"name": "Bazaar of Baghdat"'))
    os.utime(arn, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert arn.stat().st_size == st.st_size
    assert refresh([src], db).status == "unchanged"
    assert rows(db, "SELECT count(*) FROM cards WHERE name = 'Bazaar of Baghdat'") == [(0,)]
    # --force reads every file again
    assert refresh([src], db, force=True).status == "ok"
    assert rows(db, "SELECT count(*) FROM cards WHERE name = 'Bazaar of Baghdat'") == [(1,)]
    assert rows(db, "SELECT status FROM runs ORDER BY run_id") == [("ok",), ("unchanged",), ("unchanged",), ("ok",)]


def test_unchanged_refresh_imports_neither_the_parser_nor_pandas(bundled_db, tmp_path):
    db = tmp_path / "copy.duckdb"
    shutil.copy(bundled_db, db)
    code = ("import sys\n"
            "from pipeline.cli import main\n"
            "try:\n"
            f"    main(['refresh', '--source', 'bundled', '--db', {str(db)!r}, '--quiet'])\n"
            "except SystemExit as exc:\n"
            "    assert exc.code in (0, None), exc.code\n"
            "heavy = sorted(m for m in ('pandas', 'pydantic', 'pipeline.parse.parser', 'pipeline.parse.transform', 'pipeline.annotate',\n"
            "                           'pipeline.store.build', 'pyarrow') if m in sys.modules)\n"
            "print('heavy:', heavy)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.startswith("unchanged: ") and out.splitlines()[-1] == "heavy: []"
