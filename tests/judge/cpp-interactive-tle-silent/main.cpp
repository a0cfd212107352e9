#include <unistd.h>
int main() { sleep(30); }
