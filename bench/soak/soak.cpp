// onyx-soak: runs one session many times across changing input shapes (the
// plan cache's LRU turning over) and reports the resident set, to show that
// memory is flat once every shape has been seen (issue 15, item 4).
//
//   onyx-soak MODEL [--runs N] [--dim SYMBOL=V1,V2,...]... [--threads T] [--plan-cache K]
//
// Run i gives every symbolic input dim SYMBOL the value V[i % count] (other
// symbols 1); inputs are generated as onyx-run does. Prints the resident set
// after the warm-up (the first pass over all shapes, twice), every tenth of
// the runs, and at the end, then `rss: warm X MiB, end Y MiB, growth Z MiB`.
// Exit status 1 when an run fails.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "onyx/cli/run.hpp"
#include "onyx/session.hpp"

namespace {

double rss_mib() {
  std::ifstream f("/proc/self/statm");
  long pages_total = 0, pages_resident = 0;
  f >> pages_total >> pages_resident;
  return static_cast<double>(pages_resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1 << 20);
}

int usage() {
  std::fprintf(stderr, "usage: onyx-soak MODEL [--runs N] [--dim SYMBOL=V1,V2,...]... [--threads T] [--plan-cache K]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string model;
  long runs = 10000;
  int threads = 0;
  std::size_t plan_cache = 8;
  std::map<std::string, std::vector<std::int64_t>> dims;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--runs") runs = std::atol(next().c_str());
    else if (a == "--threads") threads = std::atoi(next().c_str());
    else if (a == "--plan-cache") plan_cache = static_cast<std::size_t>(std::atol(next().c_str()));
    else if (a == "--dim") {
      std::string v = next();
      auto eq = v.find('=');
      if (eq == std::string::npos) return usage();
      std::stringstream list(v.substr(eq + 1));
      std::string item;
      while (std::getline(list, item, ',')) dims[v.substr(0, eq)].push_back(std::atoll(item.c_str()));
    } else if (a.starts_with("-")) return usage();
    else model = a;
  }
  if (model.empty() || runs <= 0) return usage();
  std::size_t shapes = 1;
  for (const auto& [name, values] : dims) shapes = std::max(shapes, values.size());

  onyx::session_options so;
  so.threads = threads;
  so.plan_cache_size = plan_cache;
  auto s = onyx::session::open(model, so);
  if (!s.ok()) return onyx::cli::fail("onyx-soak", s.error().message());

  // One input set per shape choice, made once (the soak measures the
  // session, not the generator).
  std::vector<std::vector<onyx::named_value>> inputs(shapes);
  std::mt19937 gen(42);
  for (std::size_t k = 0; k < shapes; ++k) {
    onyx::cli::options o;
    for (const auto& in : (*s)->inputs()) {
      onyx::extents e;
      for (const auto& d : in.type.shape.dims) {
        if (d.known()) {
          e.push_back(d.value());
          continue;
        }
        auto it = dims.find(d.str());
        e.push_back(it == dims.end() || it->second.empty() ? 1 : it->second[k % it->second.size()]);
      }
      o.shapes.emplace_back(in.name, e);
      auto t = onyx::cli::generate(in, o, gen);
      if (!t.ok()) return onyx::cli::fail("onyx-soak", t.error().message());
      inputs[k].emplace_back(in.name, std::move(t).value());
    }
  }

  std::vector<onyx::value> outs;
  auto run = [&](long i) {
    auto st = (*s)->run(std::span<const onyx::named_value>(inputs[static_cast<std::size_t>(i) % shapes]), outs);
    if (!st.ok()) std::exit(onyx::cli::fail("onyx-soak", "run " + std::to_string(i) + ": " + st.message()));
  };
  const long warmup = std::min<long>(runs, 2 * static_cast<long>(shapes));
  for (long i = 0; i < warmup; ++i) run(i);
  const double warm = rss_mib();
  std::printf("after %ld warm-up runs over %zu shapes: rss %.1f MiB\n", warmup, shapes, warm);
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = warmup; i < runs; ++i) {
    run(i);
    if ((i + 1) % std::max<long>(1, runs / 10) == 0) std::printf("run %ld: rss %.1f MiB\n", i + 1, rss_mib());
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double end = rss_mib();
  std::printf("rss: warm %.1f MiB, end %.1f MiB, growth %.1f MiB over %ld runs (%.1f s)\n", warm, end, end - warm,
              runs - warmup, secs);
  return 0;
}
