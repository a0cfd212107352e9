// Guessing game (interactive): the secret is the test input's one number in
// 1..1000. Each line from the submission is "? g" (a guess, answered "<" when
// the secret is smaller, ">" when larger, "=" when found) or anything else
// (rejected). At most 10 guesses; after "=" the submission must write nothing
// more. Exit 42 accepts, 43 rejects (the Kattis validator protocol).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

static int reject(const std::string& dir, const std::string& why) {
  std::ofstream(dir + "judgemessage.txt") << why << "\n";
  return 43;
}

int main(int argc, char** argv) {
  if (argc < 4) return 1;
  std::ifstream in(argv[1]);
  int secret;
  if (!(in >> secret)) return 1;
  std::string dir = argv[3];
  std::string line;
  for (int guesses = 1; guesses <= 10; guesses++) {
    if (!std::getline(std::cin, line)) return reject(dir, "no guess");
    std::istringstream words(line);
    std::string q;
    int g;
    std::string rest;
    if (!(words >> q >> g) || q != "?" || (words >> rest)) return reject(dir, "not a guess: " + line.substr(0, 40));
    if (g == secret) {
      std::cout << "=" << std::endl;
      if (std::getline(std::cin, line)) return reject(dir, "wrote after the secret was found");
      return 42;
    }
    std::cout << (secret < g ? "<" : ">") << std::endl;
  }
  return reject(dir, "more than 10 guesses");
}
