#include <iostream>
#include <string>
int main() {
  int lo = 1, hi = 1000;
  std::string r;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    std::cout << "? " << mid << std::endl;
    if (!(std::cin >> r) || r == "=") return 0;
    if (r == "<") hi = mid - 1; else lo = mid + 1;
  }
}
