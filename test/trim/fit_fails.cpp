// Must not compile: the fit check of onyx-ops' list for light_squeezenet
// against a registry that has every op of that list but MaxPool. ctest
// (trim.fit_check_rejects) expects the static_assert naming MaxPool.
#include "ops.hpp"

namespace ops = onyx::ops;
using without_max_pool = onyx::registry<onyx::op_list<ops::Relu>, onyx::backend_list<onyx::cpu>>;
template struct onyx_model::fit_check<without_max_pool>;

int main() { return 0; }
