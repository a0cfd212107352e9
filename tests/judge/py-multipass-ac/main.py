kind, value = input().split()
if kind == "encode":
    print("".join(chr(ord("a") + int(d)) for d in value))
else:
    print("".join(str(ord(c) - ord("a")) for c in value))
