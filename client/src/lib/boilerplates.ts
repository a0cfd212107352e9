/**
 * Starting code per language (spec §4): a main skeleton with a
 * `Your code here` comment. The Java class is `Main` (the judge also accepts
 * any other class name that declares main).
 */
import type { LanguageId } from "./types.ts";

export const BOILERPLATES: Record<LanguageId, string> = {
  cpp: `#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);

    // Your code here

    return 0;
}
`,
  java: `import java.util.*;
import java.io.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));

        // Your code here
    }
}
`,
  py: `import sys


def main():
    data = sys.stdin.read().split()

    # Your code here


if __name__ == "__main__":
    main()
`,
};
