#!/usr/bin/env bash
# Checks the committed text that a clone reads: no comment or document cites an issue number or a
# document the repository does not contain ("issue 9", "reference §2"); reasons are given in place
# or written down in docs/. Exits 1 naming each offending line.
set -euo pipefail
cd "$(dirname "$0")/.."
pattern='\b[Ii]ssues? #?[0-9]+|reference §|ge-reference\.md|\.\./shared/'
if hits=$(git grep -nIE "$pattern" -- . ':!scripts/check_sources.sh'); then
  echo "$hits"
  echo "check_sources: the lines above cite issue numbers or documents a clone does not have;" \
    "say the reason in place (or in docs/)" >&2
  exit 1
fi
echo "check_sources: no references to issues or outside documents"
