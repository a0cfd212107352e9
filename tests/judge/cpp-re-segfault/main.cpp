#include <cstdio>
int main() { volatile int* p = nullptr; *p = 1; printf("3\n"); }
