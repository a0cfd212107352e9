# Multi-pass "relay": pass 1 gets "encode x" (0 <= x < 10^9) and must print a
# word of at most 12 lowercase letters; the validator hands that word to pass 2
# as "decode <word>", which must print x. Nothing else carries x across.
import re
import sys

data = open(sys.argv[1]).read().split()
out = sys.stdin.read().split()
x = int(open(sys.argv[2]).read().split()[0])
if data[0] == "encode":
    if len(out) != 1 or not re.fullmatch(r"[a-z]{1,12}", out[0]):
        sys.exit(43)
    with open(sys.argv[3] + "nextpass.in", "w") as f:
        f.write("decode " + out[0] + "\n")
    sys.exit(42)
sys.exit(42 if out == [str(x)] else 43)
