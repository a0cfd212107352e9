# Multi-pass "relay": pass 1 gets "encode x" (0 <= x < 10^9) and must print a
# word of at most 12 lowercase letters; the validator hands that word to pass 2
# as "decode <word>", which must print x. Nothing else carries x across.
# The validator keeps its own state in the feedback directory, which persists
# between the passes of a test (the format's "Multi-pass validation"): a
# second pass without the first pass's state is the judge's error (exit 1).
import os
import re
import sys

feedback = sys.argv[3]
data = open(sys.argv[1]).read().split()
out = sys.stdin.read().split()
x = int(open(sys.argv[2]).read().split()[0])
state = os.path.join(feedback, "relay-state.txt")
if data[0] == "encode":
    if os.path.exists(state):
        sys.exit(1)
    if len(out) != 1 or not re.fullmatch(r"[a-z]{1,12}", out[0]):
        sys.exit(43)
    with open(state, "w") as f:
        f.write("encoded\n")
    with open(feedback + "nextpass.in", "w") as f:
        f.write("decode " + out[0] + "\n")
    sys.exit(42)
if not os.path.exists(state):
    sys.exit(1)
sys.exit(42 if out == [str(x)] else 43)
