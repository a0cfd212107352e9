a, b = map(int, input().split())
print(a + b if a <= 100 else 0)
