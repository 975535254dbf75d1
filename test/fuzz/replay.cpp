// test/fuzz/replay.cpp: feeds every file under a folder to a fuzz target's
// entry function, as libFuzzer would, without needing clang or libFuzzer:
//
//   fuzz_replay TARGET DIR [TARGET DIR]...
//
// CTest runs it over test/fuzz/regressions/<target>/ (each file an input a
// fuzzer once crashed, hung or ran out of memory on). It passes when every
// file returns; a crash fails the test.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "fuzz_targets.hpp"

int main(int argc, char** argv) {
  if (argc < 3 || argc % 2 == 0) {
    std::fprintf(stderr, "usage: fuzz_replay TARGET DIR [TARGET DIR]...\n");
    return 2;
  }
  int files = 0;
  for (int a = 1; a + 1 < argc; a += 2) {
    auto f = onyx::fuzz::entry(argv[a]);
    if (!f) {
      std::fprintf(stderr, "fuzz_replay: no target '%s' (model, tensor, compact)\n", argv[a]);
      return 2;
    }
    std::vector<std::filesystem::path> paths;
    if (!std::filesystem::is_directory(argv[a + 1])) {  // git keeps no empty folder: no findings yet
      std::printf("%s: no folder %s, nothing to replay\n", argv[a], argv[a + 1]);
      continue;
    }
    for (const auto& e : std::filesystem::recursive_directory_iterator(argv[a + 1]))
      if (e.is_regular_file()) paths.push_back(e.path());
    std::sort(paths.begin(), paths.end());
    for (const auto& p : paths) {
      std::ifstream in(p, std::ios::binary);
      std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      std::printf("%s %s (%zu bytes)\n", argv[a], p.filename().c_str(), bytes.size());
      std::fflush(stdout);
      f(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++files;
    }
  }
  std::printf("replayed %d inputs, none crashed\n", files);
  return 0;
}
