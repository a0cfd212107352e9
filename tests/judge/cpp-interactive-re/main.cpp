#include <cstdlib>
#include <iostream>
#include <string>
int main() {
  std::cout << "? 500" << std::endl;
  std::string r;
  std::cin >> r;
  abort();
}
