"""Apply whole-line search/replace edits to repository files, as the edit tool does, in one go.

Usage: apply_edits.py EDITS.json   (a list of {"path", "search", "replace"}, applied in order)

Each search block must occur exactly once as whole lines of its file (one trailing newline of a
block is optional); the file keeps its line endings and final newline. Prints "@@edited N" when
every edit applied, else "@@edit-failed PATH: WHY" for the first that did not (the files edited
before it stay edited: the caller restores them from git).
"""

import json
import sys


def block_lines(block):
    if block == "":
        return []
    body = block[:-1] if block.endswith("\n") else block
    return [line[:-1] if line.endswith("\r") else line for line in body.split("\n")]


def apply(text, search, replace):
    eol = "\r\n" if "\r\n" in text else "\n"
    final = text.endswith("\n")
    lines = block_lines(text)
    needle = block_lines(search)
    if not needle:
        return None, "empty search"
    found = [i for i in range(len(lines) - len(needle) + 1) if lines[i:i + len(needle)] == needle]
    if len(found) != 1:
        return None, f"search block found {len(found)} times"
    start = found[0]
    out = lines[:start] + block_lines(replace) + lines[start + len(needle):]
    return eol.join(out) + (eol if final and out else ""), None


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        edits = json.load(handle)
    for edit in edits:
        path = edit["path"]
        try:
            with open(path, encoding="utf-8", newline="") as handle:
                text = handle.read()
        except OSError as error:
            print(f"@@edit-failed {path}: {error.strerror}")
            return 1
        result, why = apply(text, edit["search"], edit["replace"])
        if result is None:
            print(f"@@edit-failed {path}: {why}")
            return 1
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(result)
    print(f"@@edited {len(edits)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
