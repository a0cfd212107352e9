a, b = map(int, input().split())
raise ValueError(a + b)
