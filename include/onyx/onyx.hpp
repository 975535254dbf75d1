// onyx/onyx.hpp: everything a program that runs models needs.
#pragma once

#include "onyx/core/tensor.hpp"
#include "onyx/core/value.hpp"
#include "onyx/session.hpp"
