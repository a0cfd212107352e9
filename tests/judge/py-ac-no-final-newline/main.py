import sys
sys.stdout.write('a b\nc')
