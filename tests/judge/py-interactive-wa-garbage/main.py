print("hello, validator", flush=True)
