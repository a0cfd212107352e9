import sys
line = '0123456789' * 100 + '\n'
while True:
    sys.stdout.write(line)
