// onyx/runtime/profile.hpp: kernel time per op type, for ONYX_PROFILE=1.
//
// A session made while the environment variable ONYX_PROFILE is set (and not
// "0") times every kernel call of its main graph and, when destroyed, prints
// to stderr one line per op type: calls, total and per-run milliseconds and
// share of the kernel time. Fused nodes appear as "Conv+Relu" and the like.
// Subgraph bodies count towards the node that runs them. ONYX_PROFILE=shapes
// keys the lines by op type and input shapes instead (one line per distinct
// layer shape: where a network's time goes). When the variable is unset the
// executor pays one null-pointer test per node.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace onyx::runtime {

class op_profile {
 public:
  using clock = std::chrono::steady_clock;

  /// A profile when ONYX_PROFILE asks for one, else null.
  static std::unique_ptr<op_profile> from_environment() {
    const char* v = std::getenv("ONYX_PROFILE");
    if (!v || !*v || std::string(v) == "0") return nullptr;
    auto p = std::make_unique<op_profile>();
    p->by_shape_ = std::string(v) == "shapes";
    return p;
  }

  /// Whether lines are keyed by input shapes too (ONYX_PROFILE=shapes).
  bool by_shape() const { return by_shape_; }

  void add(const std::string& op, clock::duration d) {
    std::lock_guard lock(mutex_);
    auto& e = by_op_[op];
    ++e.calls;
    e.time += d;
  }
  void count_run() {
    std::lock_guard lock(mutex_);
    ++runs_;
  }

  std::string report() const {
    std::lock_guard lock(mutex_);
    std::vector<std::pair<std::string, entry>> rows(by_op_.begin(), by_op_.end());
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.time > b.second.time; });
    double total = 0;
    for (const auto& r : rows) total += ms(r.second.time);
    std::string s = "onyx profile: " + std::to_string(runs_) + " runs, kernel time per op type\n";
    char line[512];
    std::snprintf(line, sizeof line, "  %-40s %10s %12s %12s %7s\n", "op", "calls", "total ms", "ms/run", "share");
    s += line;
    for (const auto& [op, e] : rows) {
      std::snprintf(line, sizeof line, "  %-40s %10lld %12.2f %12.3f %6.1f%%\n", op.c_str(), e.calls, ms(e.time),
                    ms(e.time) / std::max<long long>(runs_, 1), total > 0 ? 100 * ms(e.time) / total : 0.0);
      s += line;
    }
    std::snprintf(line, sizeof line, "  %-40s %10s %12.2f %12.3f\n", "all", "", total,
                  total / std::max<long long>(runs_, 1));
    return s + line;
  }

 private:
  struct entry {
    long long calls = 0;
    clock::duration time{};
  };
  static double ms(clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

  bool by_shape_ = false;
  mutable std::mutex mutex_;
  std::map<std::string, entry> by_op_;
  long long runs_ = 0;
};

}  // namespace onyx::runtime
