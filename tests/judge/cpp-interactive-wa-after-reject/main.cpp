#include <cstdio>
#include <unistd.h>
int main() {
  for (int i = 0; i < 20; i++) { printf("? 1\n"); fflush(stdout); }
  usleep(300000);
  for (;;) { printf("? 1\n"); fflush(stdout); }
}
