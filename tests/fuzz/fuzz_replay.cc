// Replays inputs through a fuzz target, as the fuzzer would: fuzz_replay TARGET PATH...
// Each PATH is a file or a directory of files. Exit status 0 when every input kept the target's
// invariants (a broken one aborts), 2 for bad arguments.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_targets.h"

int main(int argc, char** argv) {
  const ge::fuzz::Target target = argc > 1 ? ge::fuzz::FindTarget(argv[1]) : nullptr;
  if (target == nullptr) {
    std::string names;
    for (std::string_view name : ge::fuzz::kTargetNames) {
      names += (names.empty() ? "" : "|") + std::string(name);
    }
    std::fprintf(stderr, "usage: %s %s PATH...\n", argv[0], names.c_str());
    return 2;
  }
  std::vector<std::filesystem::path> files;
  for (int i = 2; i < argc; ++i) {
    const std::filesystem::path path(argv[i]);
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
    } else if (std::filesystem::is_regular_file(path)) {
      files.push_back(path);
    } else {
      std::fprintf(stderr, "fuzz_replay: '%s' is neither a file nor a directory\n", argv[i]);
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  size_t accepted = 0;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    accepted += target(bytes.str()) ? 1 : 0;
  }
  std::printf("fuzz_replay %s: %zu input(s) kept the invariants, %zu of them went all the way\n",
              argv[1], files.size(), accepted);
  return 0;
}
