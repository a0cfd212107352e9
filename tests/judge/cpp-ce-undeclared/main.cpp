int main() { return undefined_thing; }
