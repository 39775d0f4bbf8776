// The notes: where the storage is declared, where it is destroyed when that is
// before the function returns, and where the tensor escapes or is read after.
// RUN: %check_torch_tidy %s torch-from-blob-lifetime %t.mock -- %mock_flags

#include <torch/torch.h>

#include <cstdint>
#include <vector>

torch::Tensor through_a_variable(int64_t n) {
  std::vector<float> v(n, 1.f);
  auto t = torch::from_blob(v.data(), {n}).view({1, n});
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'through_a_variable' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-NOTES: :[[@LINE-3]]:22: note: 'v' is declared here
  return t;
  // CHECK-NOTES: :[[@LINE-1]]:10: note: the tensor escapes here
  // CHECK-FIXES: return t.clone();
}

torch::Tensor stacked(int64_t n) {
  std::vector<torch::Tensor> rows;
  for (int64_t i = 0; i < n; ++i) {
    std::vector<float> row(n, float(i));
    rows.push_back(torch::from_blob(row.data(), {n}));
    // CHECK-NOTES: :[[@LINE-1]]:20: warning: 'torch::from_blob' does not copy local 'row', which is destroyed at the end of its scope, but a container holding the tensor is kept in 'rows' and used after that; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
    // CHECK-NOTES: :[[@LINE-3]]:24: note: 'row' is declared here
    // CHECK-FIXES: rows.push_back(torch::from_blob(row.data(), {n}).clone());
  }
  // CHECK-NOTES: :[[@LINE-1]]:3: note: 'row' is destroyed here
  return torch::stack(rows);
  // CHECK-NOTES: :[[@LINE-1]]:23: note: 'rows' is used here, after that
}

torch::Tensor from_a_temporary(std::vector<float> (*make)()) {
  auto t = torch::from_blob(make().data(), {4});
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: 'torch::from_blob' does not copy a temporary 'std::vector<float>', which is destroyed at the end of the full-expression, but the tensor is kept in 't' and used after that; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: auto t = torch::from_blob(make().data(), {4}).clone();
  return t + 1;
  // CHECK-NOTES: :[[@LINE-1]]:10: note: 't' is used here, after that
}
