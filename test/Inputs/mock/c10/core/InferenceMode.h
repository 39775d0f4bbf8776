// Mock of LibTorch 1.13 <c10/core/InferenceMode.h>.
#pragma once

#include <c10/core/GradMode.h>

namespace c10 {

// A RAII, thread local (!) guard that enables or disables inference mode upon
// construction, and sets it back to the original value upon destruction.
struct TORCH_API InferenceMode {
  InferenceMode(bool enabled = true) {}
  ~InferenceMode() {}
  static bool is_enabled();
};

} // namespace c10
