"""Shared test setup.

The repo root is put on sys.path so the tests run without installing the package, and
the ids of parametrized cases built from strings are kept short and shell-safe.
"""

import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def pytest_make_parametrize_id(config, val, argname):
    """A string's id keeps its ASCII letters, digits, "." and "-"; other runs become "_"."""
    if not isinstance(val, str):
        return None
    text = unicodedata.normalize("NFKD", val).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^A-Za-z0-9.-]+", "_", text).strip("_") or ("empty" if not val else "blank")
