#!/usr/bin/env bash
# Default test script of `ssr test-run`: the repo's whole pytest suite with a summary line per
# test (-rA), which the default test_parser.py reads. No cache dir, so the repo stays clean.
cd /repo && python3 -m pytest -rA -p no:cacheprovider
