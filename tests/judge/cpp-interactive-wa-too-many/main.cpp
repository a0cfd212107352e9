#include <iostream>
#include <string>
int main() {
  std::string r;
  for (int g = 1; g <= 1000; g++) {
    std::cout << "? " << g << std::endl;
    if (!(std::cin >> r) || r == "=") return 0;
  }
}
