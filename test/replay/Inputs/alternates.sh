#!/bin/sh
# alternates.sh OUTPUT: the fake driver ran the launches of a "tiers" run
# (Sequences.cpp) in OUTPUT as the program made them: as many as its
# "launches N" line says, its two kernels' launches alternating, each with
# its arguments, whatever code ran them (the generic code, tier 0's, tier
# 1's; plain or programmatic, or a graph's node). Prints "alternates: N launches" or fails.
awk '
  /^launches / { made = $2 }
  /^fakecuda: launch / {
    sub(/^fakecuda: launch [^ ]* /, "")
    sub(/ \(programmatic\)$/, "")
    n++
    if (n <= 2) first[n] = $0
    else if ($0 != first[2 - n % 2]) { print "alternates: launch " n ": " $0; bad = 1 }
  }
  END {
    if (!made || n != made) { print "alternates: " n " launches ran, " made " made"; bad = 1 }
    if (first[1] == first[2]) { print "alternates: the two kernels ran alike"; bad = 1 }
    if (bad) exit 1
    print "alternates: " n " launches"
  }' "$1"
