#include <cstdio>
int main() { double a, b; scanf("%lf %lf", &a, &b); printf("%.7f\n", a / b); }
