# Guessing game (interactive), the same rules as guess.cpp, in Python.
import sys


def reject(why):
    with open(sys.argv[3] + "judgemessage.txt", "w") as f:
        f.write(why + "\n")
    sys.exit(43)


secret = int(open(sys.argv[1]).read().split()[0])
for _ in range(10):
    line = sys.stdin.readline()
    if not line:
        reject("no guess")
    words = line.split()
    if len(words) != 2 or words[0] != "?" or not words[1].lstrip("-").isdigit():
        reject("not a guess")
    g = int(words[1])
    if g == secret:
        print("=", flush=True)
        if sys.stdin.readline():
            reject("wrote after the secret was found")
        sys.exit(42)
    print("<" if secret < g else ">", flush=True)
reject("more than 10 guesses")
