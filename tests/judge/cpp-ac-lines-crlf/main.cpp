#include <cstdio>
int main() {
  // CRLF line ends, trailing spaces and trailing blank lines are all ignored by the lines checker.
  printf("a b   \r\nc\t\r\n\r\n\n");
}
