#!/usr/bin/env bash
# Rebuild examples/pyledger.bundle from the commit overlays in examples/pyledger-src/commits/
# and print the final sha (it must match repos.yaml). Kept for the places that name it;
# the work is done by build-example.sh, which documents the overlay format.
#
# Usage: examples/build-pyledger.sh [--verify] [--out PATH]
exec "$(dirname "${BASH_SOURCE[0]}")/build-example.sh" pyledger "$@"
