#include <bits/stdc++.h>
int main() {
  // 512 MiB touched under a 64 MiB limit.
  std::vector<char> v(512u << 20);
  for (size_t i = 0; i < v.size(); i += 4096) v[i] = 1;
  printf("%d\n", v[12345]);
}
