// Must not compile: the fit check of onyx-ops' list for light_squeezenet
// against a registry with only two of the model's ops. ctest
// (trim.fit_check_rejects) expects the static_assert that names MaxPool.
#include "ops.hpp"

namespace ops = onyx::ops;
using too_few = onyx::registry<onyx::op_list<ops::Concat, ops::fused::Conv>, onyx::backend_list<onyx::cpu>>;
template struct onyx_model::fit_check<too_few>;

int main() { return 0; }
