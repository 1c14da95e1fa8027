"""The one error type every reader raises for bad input."""

from __future__ import annotations


class SourceError(Exception):
    """Bad source input, reported on one line naming the file, the record and the field.

    ``path``: the file; ``record``: a short record locator (``"#17 (id=…, name=…)"``) or None;
    ``field``: the offending field or None; ``reason``: what is wrong.
    """

    def __init__(self, path, reason: str, *, record: str | None = None, field: str | None = None):
        self.path = str(path)
        self.reason = " ".join(reason.split())  # one line, whatever the underlying error printed
        self.record = record
        self.field = field
        parts = [self.path]
        if record is not None:
            parts.append(f"record {record}")
        if field is not None:
            parts.append(f"field {field!r}")
        super().__init__(": ".join([", ".join(parts), self.reason]))


def record_label(index: int, obj: dict | None = None) -> str:
    """Return ``"#index (id=…, name=…)"`` for error messages; ``index`` counts from 0."""
    if not isinstance(obj, dict):
        return f"#{index}"
    bits = [f"{k}={obj[k]!r}" for k in ("id", "uuid", "name") if isinstance(obj.get(k), str)]
    return f"#{index}" + (f" ({', '.join(bits)})" if bits else "")
