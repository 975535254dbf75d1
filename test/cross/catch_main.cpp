// The Catch2 v2 main of the cross build's kernel tests: Debian's catch2 is
// header-only for any target (its prebuilt Catch2WithMain is x86 only).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
