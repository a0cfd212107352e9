a, b = map(int, input().split())
print(a + b if a < 10 else 0)
