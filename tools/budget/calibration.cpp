// tools/budget/calibration.cpp: a fixed compile workload (standard headers only,
// nothing of onyx) that tools/check-registry-budget.sh compiles with the same
// compiler and flags as the registry TU, so the budget is a ratio to this
// machine's speed rather than seconds that hold on one machine only.
#include <algorithm>
#include <functional>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>
template <int N> struct node { std::vector<std::variant<int, double, std::string>> v; std::map<std::string, std::function<int(int)>> f; };
template <int N> int use() {
  node<N> n; n.v.emplace_back(N); n.f["a"] = [](int x) { return x + N; };
  std::regex r("(a|b)+c" + std::to_string(N)); std::smatch m; std::string s = "abac";
  std::unordered_map<std::string, std::vector<int>> u; u[s].push_back(N);
  std::ostringstream o; o << n.v.size() << std::regex_search(s, m, r);
  std::sort(u[s].begin(), u[s].end());
  return static_cast<int>(o.str().size()) + n.f["a"](1);
}
template <int... I> int all(std::integer_sequence<int, I...>) { return (use<I>() + ...); }
int main() { std::cout << all(std::make_integer_sequence<int, 24>{}) << "\n"; }
