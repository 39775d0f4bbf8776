#include "net.h"

void freeze_autograd() { torch::autograd::GradMode::set_enabled(false); }
void thaw_autograd() { torch::autograd::GradMode::set_enabled(true); }
void freeze_maybe(bool f) {
  if (f)
    torch::autograd::GradMode::set_enabled(false);
}
void guarded() { torch::NoGradGuard no_grad; }
void freeze_through() { freeze_autograd(); }
