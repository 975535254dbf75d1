// test/unit/temp_path.hpp: a path under the system's temp folder that belongs
// to this process, so test runs side by side (several build trees, ctest -j)
// never write the same file. Every path handed out is removed at exit.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace onyx::test {

inline std::filesystem::path temp_path(const std::string& name) {
  struct removed_at_exit {
    std::vector<std::filesystem::path> paths;
    ~removed_at_exit() {
      std::error_code ec;
      for (const auto& p : paths) std::filesystem::remove_all(p, ec);
    }
  };
  static removed_at_exit files;
  auto path = std::filesystem::temp_directory_path() / ("onyx_" + std::to_string(::getpid()) + "_" + name);
  files.paths.push_back(path);
  return path;
}

}  // namespace onyx::test
