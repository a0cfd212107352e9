#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  /* 512 MiB touched, 1 MiB at a time, under a 64 MiB limit; malloc's result is not checked. */
  char *keep[512];
  for (int i = 0; i < 512; i++) { keep[i] = malloc(1 << 20); memset(keep[i], i, 1 << 20); }
  printf("%d\n", keep[511][7]);
  return 0;
}
