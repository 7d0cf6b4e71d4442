# Warnings every gpuhist target builds with (INTERFACE, so it is linked, not copied).
add_library(gpuhist_warnings INTERFACE)
target_compile_options(gpuhist_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow
  -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual
  -Wnull-dereference -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)

# The float binning formula must be evaluated exactly as written on the CPU
# (no fused multiply-add), so that CPU and GPU results agree bit for bit.
add_library(gpuhist_exact_float INTERFACE)
target_compile_options(gpuhist_exact_float INTERFACE -ffp-contract=off -fno-fast-math)
