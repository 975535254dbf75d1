// onyx/runtime/profile.hpp: where a session's time goes.
//
// Two views of the same kernel calls, either or both kept by one `op_profile`:
//
// - **Kernel time per op type** (a table). A session made while ONYX_PROFILE
//   is set (and not "0") keeps it and, when destroyed, prints it to stderr:
//   one line per op type with calls, total and per-run milliseconds and share
//   of the kernel time. Fused nodes appear as "Conv+Relu" and the like.
//   Subgraph bodies count towards the node that runs them. ONYX_PROFILE=shapes
//   keys the lines by op type and input shapes instead (one line per distinct
//   layer shape). `session_options::profile_summary` keeps it without the
//   print (onyx-run --profile-summary prints it).
// - **A Chrome trace** (`session_options::profile_file`, onyx-run --profile
//   FILE, or ONYX_PROFILE_FILE=FILE): one complete event ("ph": "X") per
//   kernel call of the main graph, with the node's name, its op, the kernel
//   (backend and type signature), the ISA of the CPU micro-kernels, its input
//   shapes, start and duration in microseconds since the session was made,
//   and the thread that ran it (threads numbered from 0 in order of first
//   use); and one event per stage of the session's creation (load,
//   normalize, infer, each optimization pass, prepare). The file is the JSON
//   object form of the Trace Event Format, which chrome://tracing and
//   Perfetto open; it is written by session_core::end_profiling() or when the
//   session is destroyed. Tested in test/unit/profile_test.cpp.
//
// A node on an asynchronous device (CUDA) is timed until the device has run
// it: a profiled run waits for each such kernel (backend_info::synchronize),
// so its times add up to the device's work plus one wait per node, while an
// unprofiled run queues kernels back to back.
//
// When neither is on, the executor pays one null-pointer test per node.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "onyx/core/status.hpp"

namespace onyx::runtime {

class op_profile {
 public:
  using clock = std::chrono::steady_clock;

  /// One kernel call or creation stage, as the trace shows it.
  struct event {
    std::string name;  // node name, or the stage
    std::string cat;   // "node" or "session"
    clock::time_point start;
    clock::duration duration{};
    int thread = 0;
    std::string op, kernel, isa, input_shapes;  // nodes only
  };

  /// A profile when ONYX_PROFILE or ONYX_PROFILE_FILE asks for one, else null.
  static std::unique_ptr<op_profile> from_environment() {
    const char* v = std::getenv("ONYX_PROFILE");
    const char* file = std::getenv("ONYX_PROFILE_FILE");
    const bool table = v && *v && std::string(v) != "0";
    if (!table && !(file && *file)) return nullptr;
    auto p = std::make_unique<op_profile>();
    p->by_shape_ = table && std::string(v) == "shapes";
    p->print_at_exit_ = table;
    if (file && *file) p->trace_file_ = file;
    return p;
  }

  /// Whether lines are keyed by input shapes too (ONYX_PROFILE=shapes).
  bool by_shape() const { return by_shape_; }
  /// Whether the table goes to stderr when the session ends (ONYX_PROFILE).
  bool print_at_exit() const { return print_at_exit_; }
  /// Whether kernel calls are recorded as trace events (a trace file is set).
  bool tracing() const { return tracing_.load(std::memory_order_relaxed) && !trace_file_.empty(); }
  const std::filesystem::path& trace_file() const { return trace_file_; }
  void set_trace_file(std::filesystem::path f) { trace_file_ = std::move(f); }
  /// The ISA the CPU backend's micro-kernels run at (shown per node).
  void set_isa(std::string isa) { isa_ = std::move(isa); }
  const std::string& isa() const { return isa_; }
  clock::time_point origin() const { return origin_; }

  void add(const std::string& op, clock::duration d) {
    std::lock_guard lock(mutex_);
    auto& e = by_op_[op];
    ++e.calls;
    e.time += d;
  }
  void add_event(event e) {
    std::lock_guard lock(mutex_);
    events_.push_back(std::move(e));
  }
  /// A creation stage that ran from `start` until now.
  void add_stage(std::string name, clock::time_point start) {
    event e;
    e.name = std::move(name);
    e.cat = "session";
    e.start = start;
    e.duration = clock::now() - start;
    e.thread = thread_number();
    add_event(std::move(e));
  }
  void count_run() {
    std::lock_guard lock(mutex_);
    ++runs_;
  }
  /// Forgets the table's kernel times and runs so far; the trace keeps its
  /// events. For a table of the steady state: a first run carries one-time
  /// costs (a device library loaded, memory touched for the first time).
  void restart_summary() {
    std::lock_guard lock(mutex_);
    by_op_.clear();
    runs_ = 0;
  }

  /// The calling thread's number in the trace (0, 1, ... in order of first use).
  static int thread_number() {
    static std::atomic<int> next{0};
    thread_local int mine = next++;
    return mine;
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

  /// The events so far as a Trace Event Format JSON object.
  std::string trace_json() const {
    std::lock_guard lock(mutex_);
    std::string s = "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"producer\":\"onyx\",\"isa\":" + quoted(isa_) +
                    "},\"traceEvents\":[\n";
    s += "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"onyx session\"}}";
    char buf[128];
    for (const auto& e : events_) {
      std::snprintf(buf, sizeof buf, "\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f", e.thread,
                    us(e.start - origin_), us(e.duration));
      s += ",\n{\"name\":" + quoted(e.name) + ",\"cat\":" + quoted(e.cat) + "," + buf;
      if (e.cat == "node")
        s += ",\"args\":{\"op_name\":" + quoted(e.op) + ",\"kernel\":" + quoted(e.kernel) +
             ",\"isa\":" + quoted(e.isa) + ",\"input_shapes\":" + quoted(e.input_shapes) + "}";
      s += "}";
    }
    return s + "\n]}\n";
  }

  /// Writes the trace to trace_file() and stops recording. A second call
  /// writes nothing.
  status end_tracing() {
    if (!tracing_.exchange(false) || trace_file_.empty()) return ok();
    const std::string text = trace_json();
    std::FILE* f = std::fopen(trace_file_.c_str(), "wb");
    bool written = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (f && std::fclose(f) != 0) written = false;
    if (!written) return status(errc::io, "cannot write the profile '" + trace_file_.string() + "'");
    return ok();
  }

 private:
  struct entry {
    long long calls = 0;
    clock::duration time{};
  };
  static double ms(clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }
  static double us(clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }
  static std::string quoted(const std::string& v) {
    std::string s = "\"";
    for (char c : v) {
      if (c == '"' || c == '\\') s += '\\', s += c;
      else if (static_cast<unsigned char>(c) < 0x20) {
        char esc[8];
        std::snprintf(esc, sizeof esc, "\\u%04x", c);
        s += esc;
      } else
        s += c;
    }
    return s + "\"";
  }

  bool by_shape_ = false;
  bool print_at_exit_ = false;
  std::filesystem::path trace_file_;
  std::string isa_;
  std::atomic<bool> tracing_{true};
  clock::time_point origin_ = clock::now();
  mutable std::mutex mutex_;
  std::map<std::string, entry> by_op_;
  std::vector<event> events_;
  long long runs_ = 0;
};

}  // namespace onyx::runtime
