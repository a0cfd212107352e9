#include <cstdio>
int main() { printf(" a b\nc\n"); }
