// RUN: %check_torch_tidy %s torch-from-blob-lifetime %t.mock -- %mock_flags
// RUN: %check_torch_tidy %s torch-from-blob-lifetime %t.real -- %real_flags

#include <torch/torch.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

std::vector<float> make_buffer(int64_t n);
std::vector<float> &shared_buffer();
void consume(const torch::Tensor &t);

// ---- positives -------------------------------------------------------------

torch::Tensor returned_directly(int64_t n) {
  std::vector<float> v(n, 1.f);
  return torch::from_blob(v.data(), {n});
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'returned_directly' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: return torch::from_blob(v.data(), {n}).clone();
}

torch::Tensor returned_through_a_variable(int64_t n) {
  std::vector<float> v(n, 1.f);
  auto t = torch::from_blob(v.data(), {n});
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'returned_through_a_variable' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  t = t.view({1, n}).div_(2);
  return t;
  // CHECK-FIXES: return t.clone();
}

at::Tensor at_namespace_with_options(int64_t n) {
  std::vector<int64_t> ids(n, 0);
  at::Tensor t = at::from_blob(ids.data(), {n}, at::TensorOptions().dtype(at::kLong));
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'at::from_blob' does not copy local 'ids', which is destroyed when 'at_namespace_with_options' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  return t;
  // CHECK-FIXES: return t.clone();
}

torch::Tensor local_c_array() {
  float data[2][2] = {{1, 2}, {3, 4}};
  return torch::from_blob(data, {2, 2});
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::from_blob' does not copy local 'data', which is destroyed when 'local_c_array' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: return torch::from_blob(data, {2, 2}).clone();
}

torch::Tensor local_std_array() {
  std::array<double, 3> a{1, 2, 3};
  return torch::from_blob(a.data(), {3}, torch::kDouble);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::from_blob' does not copy local 'a', which is destroyed when 'local_std_array' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: return torch::from_blob(a.data(), {3}, torch::kDouble).clone();
}

torch::Tensor local_string() {
  std::string s = "bytes";
  return torch::from_blob(const_cast<char *>(s.c_str()), {5}, torch::kByte);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::from_blob' does not copy local 's', which is destroyed when 'local_string' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: return torch::from_blob(const_cast<char *>(s.c_str()), {5}, torch::kByte).clone();
}

torch::Tensor address_of_first_element(int64_t n) {
  std::vector<float> v(n, 1.f);
  return torch::from_blob(&v[0], {n});
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'address_of_first_element' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: return torch::from_blob(&v[0], {n}).clone();
}

torch::Tensor local_scalar() {
  int64_t size = 7;
  return torch::from_blob(&size, {1}, torch::kLong);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::from_blob' does not copy local 'size', which is destroyed when 'local_scalar' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: return torch::from_blob(&size, {1}, torch::kLong).clone();
}

torch::Tensor parameter_by_value(std::vector<float> v) {
  return torch::from_blob(v.data(), {static_cast<int64_t>(v.size())});
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::from_blob' does not copy parameter 'v' (taken by value), which is destroyed when 'parameter_by_value' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: return torch::from_blob(v.data(), {static_cast<int64_t>(v.size())}).clone();
}

torch::Tensor temporary_kept(int64_t n) {
  auto t = torch::from_blob(make_buffer(n).data(), {n});
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::from_blob' does not copy a temporary 'std::vector<float>', which is destroyed at the end of the full-expression, but the tensor is kept in 't' and used after that; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: auto t = torch::from_blob(make_buffer(n).data(), {n}).clone();
  return t * 2;
}

torch::Tensor temporary_returned(int64_t n) {
  return torch::from_blob(make_buffer(n).data(), {n});
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::from_blob' does not copy a temporary 'std::vector<float>', which is destroyed at the end of the full-expression, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: return torch::from_blob(make_buffer(n).data(), {n}).clone();
}

torch::Tensor rows_outlive_their_buffers(int64_t n) {
  std::vector<torch::Tensor> rows;
  for (int64_t i = 0; i < n; ++i) {
    std::vector<float> row(n, float(i));
    rows.push_back(torch::from_blob(row.data(), {n}));
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'torch::from_blob' does not copy local 'row', which is destroyed at the end of its scope, but a container holding the tensor is kept in 'rows' and used after that; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
    // CHECK-FIXES: rows.push_back(torch::from_blob(row.data(), {n}).clone());
  }
  return torch::stack(rows);
}

torch::Tensor outer_variable(int64_t n) {
  torch::Tensor last;
  while (n-- > 0) {
    std::vector<float> buffer(4, float(n));
    last = torch::from_blob(buffer.data(), {4});
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::from_blob' does not copy local 'buffer', which is destroyed at the end of its scope, but the tensor is kept in 'last' and used after that; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
    // CHECK-FIXES: last = torch::from_blob(buffer.data(), {4}).clone();
  }
  return last.sum();
}

std::function<torch::Tensor()> captured_by_a_lambda() {
  std::vector<float> v(4, 1.f);
  auto t = torch::from_blob(v.data(), {4});
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'captured_by_a_lambda' returns, but a lambda that captures the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  return [t] { return t + 1; };
}

torch::data::Example<> example_returned(int64_t n) {
  std::vector<float> v(n, 1.f);
  auto t = torch::from_blob(v.data(), {n});
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'example_returned' returns, but an object holding the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  return {t, torch::zeros({1})};
  // CHECK-FIXES: return {t.clone(), torch::zeros({1})};
}

std::pair<torch::Tensor, int> pair_returned(int64_t n) {
  std::vector<float> v(n, 1.f);
  return std::make_pair(torch::from_blob(v.data(), {n}), 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'pair_returned' returns, but an object holding the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: return std::make_pair(torch::from_blob(v.data(), {n}).clone(), 1);
}

void out_parameter(torch::Tensor &out) {
  std::vector<float> v(3, 0.f);
  out = torch::from_blob(v.data(), {3});
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'out_parameter' returns, but the tensor is stored in 'out', which outlives it; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: out = torch::from_blob(v.data(), {3}).clone();
}

torch::Tensor cached;
void global_variable() {
  std::vector<float> v(3, 0.f);
  cached = torch::from_blob(v.data(), {3}).permute({0});
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'global_variable' returns, but the tensor is stored in 'cached', which outlives it; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: cached = torch::from_blob(v.data(), {3}).permute({0}).clone();
}

class Loader {
public:
  explicit Loader(std::vector<float> values)
      : values_(torch::from_blob(values.data(),
      // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'torch::from_blob' does not copy parameter 'values' (taken by value), which is destroyed when the constructor returns, but the tensor is stored in member 'values_'; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
                                 {static_cast<int64_t>(values.size())})) {}
                                 // CHECK-FIXES: {static_cast<int64_t>(values.size())}).clone()) {}

  void load(int64_t n) {
    std::vector<float> v(n, 1.f);
    image_ = torch::from_blob(v.data(), {n});
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'load' returns, but the tensor is stored in member 'image_'; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
    // CHECK-FIXES: image_ = torch::from_blob(v.data(), {n}).clone();
  }
  void load_all(int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      std::vector<float> v(n, float(i));
      auto t = torch::from_blob(v.data(), {n});
      // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'torch::from_blob' does not copy local 'v', which is destroyed at the end of its scope, but the tensor is stored in member 'batch_'; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
      batch_.push_back(t);
      // CHECK-FIXES: batch_.push_back(t.clone());
    }
  }
  void load_conditionally(bool fresh, int64_t n) {
    std::vector<float> v(n, 1.f);
    if (fresh)
      this->image_ = torch::from_blob(v.data(), {n}).clone();
    else
      this->image_ = torch::from_blob(v.data(), {n}).reshape({1, n});
      // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'load_conditionally' returns, but the tensor is stored in member 'image_'; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
      // CHECK-FIXES: this->image_ = torch::from_blob(v.data(), {n}).reshape({1, n}).clone();
  }

private:
  torch::Tensor values_;
  torch::Tensor image_;
  std::vector<torch::Tensor> batch_;
};

template <typename T> torch::Tensor in_a_template(int64_t n) {
  std::vector<T> v(n);
  return torch::from_blob(v.data(), {n}, torch::kFloat);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'in_a_template' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
}
template torch::Tensor in_a_template<float>(int64_t);

// ---- negatives ---------------------------------------------------------------

torch::Tensor cloned(int64_t n) {
  std::vector<float> v(n, 1.f);
  return torch::from_blob(v.data(), {n}).clone();
}

torch::Tensor cloned_later(int64_t n) {
  std::vector<float> v(n, 1.f);
  auto t = torch::from_blob(v.data(), {n});
  t = t.clone();
  return t;
}

torch::Tensor converted(int64_t n) {
  std::vector<uint8_t> v(n, 1);
  return torch::from_blob(v.data(), {n}, torch::kByte).to(torch::kFloat);
}

torch::Tensor moved_to_gpu(int64_t n) {
  std::vector<float> v(n, 1.f);
  return torch::from_blob(v.data(), {n}).to(torch::kCUDA);
}

torch::Tensor computed_from(int64_t n) {
  std::vector<float> v(n, 1.f);
  auto t = torch::from_blob(v.data(), {n});
  return t * 2 + torch::relu(t);
}

torch::Tensor with_a_deleter(int64_t n) {
  auto *v = new std::vector<float>(n, 1.f);
  return torch::from_blob(v->data(), {n},
                          [v](void *) { delete v; });
}

torch::Tensor local_with_a_deleter(int64_t n) {
  std::vector<float> v(n, 1.f);
  return torch::from_blob(v.data(), {n}, [](void *) {});
}

torch::Tensor parameter_by_reference(std::vector<float> &v) {
  return torch::from_blob(v.data(), {static_cast<int64_t>(v.size())});
}

torch::Tensor pointer_parameter(float *data, int64_t n) {
  return torch::from_blob(data, {n});
}

torch::Tensor static_storage() {
  static std::vector<float> table(16, 0.5f);
  return torch::from_blob(table.data(), {16});
}

torch::Tensor reference_to_outside() {
  std::vector<float> &v = shared_buffer();
  return torch::from_blob(v.data(), {static_cast<int64_t>(v.size())});
}

torch::Tensor used_locally(int64_t n) {
  std::vector<float> v(n, 1.f);
  auto t = torch::from_blob(v.data(), {n});
  consume(t);
  return t.sum();
}

torch::Tensor temporary_used_in_its_statement(int64_t n) {
  return torch::from_blob(make_buffer(n).data(), {n}).sum();
}

torch::Tensor temporary_metadata_only(int64_t n) {
  auto t = torch::from_blob(make_buffer(n).data(), {n});
  return torch::zeros(t.sizes());
}

torch::Tensor rows_cloned(int64_t n) {
  std::vector<torch::Tensor> rows;
  for (int64_t i = 0; i < n; ++i) {
    std::vector<float> row(n, float(i));
    rows.push_back(torch::from_blob(row.data(), {n}).clone());
  }
  return torch::stack(rows);
}

torch::Tensor rows_not_read_after(int64_t n) {
  std::vector<torch::Tensor> rows;
  for (int64_t i = 0; i < n; ++i) {
    std::vector<float> row(n, float(i));
    rows.push_back(torch::from_blob(row.data(), {n}));
    consume(rows.back());
  }
  return torch::zeros({static_cast<int64_t>(rows.size())});
}

torch::Tensor same_scope(int64_t n) {
  torch::Tensor t;
  std::vector<float> v(n, 1.f);
  t = torch::from_blob(v.data(), {n});
  return t.sum();
}

torch::Tensor reassigned_before_return(int64_t n) {
  std::vector<float> v(n, 1.f);
  auto t = torch::from_blob(v.data(), {n});
  consume(t);
  t = torch::ones({n});
  return t;
}

std::function<torch::Tensor()> lambda_capturing_a_clone() {
  std::vector<float> v(4, 1.f);
  auto t = torch::from_blob(v.data(), {4}).clone();
  return [t] { return t + 1; };
}

struct Frame {
  std::vector<float> pixels;
  torch::Tensor view() { return torch::from_blob(pixels.data(), {4}); }
};

template <typename T> torch::Tensor dependent(std::vector<T> &v) {
  return torch::from_blob(v.data(), {static_cast<int64_t>(v.size())});
}

struct Owner {
  std::vector<float> buffer_;
  torch::Tensor view_;
  // The vector's heap block moves into the member with it.
  void adopt(std::vector<float> v) {
    view_ = torch::from_blob(v.data(), {static_cast<int64_t>(v.size())});
    buffer_ = std::move(v);
  }
};

torch::Tensor unique_buffer(int64_t n) {
  std::unique_ptr<float[]> buffer(new float[n]());
  return torch::from_blob(buffer.get(), {n});
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::from_blob' does not copy local 'buffer', which is destroyed when 'unique_buffer' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: return torch::from_blob(buffer.get(), {n}).clone();
}

torch::Tensor cloned_on_one_path_only(bool copy, int64_t n) {
  std::vector<float> v(n, 1.f);
  auto t = torch::from_blob(v.data(), {n});
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'cloned_on_one_path_only' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  if (copy)
    t = t.clone();
  return t;
  // CHECK-FIXES: return t.clone();
}

torch::Tensor static_destination(int64_t n) {
  std::vector<float> v(n, 1.f);
  static torch::Tensor last = torch::from_blob(v.data(), {n});
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'static_destination' returns, but the tensor is stored in 'last', which outlives it; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: static torch::Tensor last = torch::from_blob(v.data(), {n}).clone();
  return last.sum();
}

torch::Tensor local_reference_destination(torch::Tensor &slot, int64_t n) {
  std::vector<float> v(n, 1.f);
  torch::Tensor &alias = slot;
  alias = torch::from_blob(v.data(), {n}).clone();
  return alias.sum();
}

// A temporary std::string: its characters die with the statement.
torch::Tensor string_temporary(const std::string &prefix) {
  auto bytes = torch::from_blob(const_cast<char *>((prefix + "!").c_str()),
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'torch::from_blob' does not copy a temporary 'std::basic_string<char>', which is destroyed at the end of the full-expression, but the tensor is kept in 'bytes' and used after that; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
                                {static_cast<int64_t>(prefix.size() + 1)},
                                torch::kByte);
                                // CHECK-FIXES: torch::kByte).clone();
  return bytes.sum();
}

// A lambda is a function of its own.
auto make_row = [](int64_t n) {
  std::vector<float> v(n, 1.f);
  return torch::from_blob(v.data(), {n});
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when the lambda returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: return torch::from_blob(v.data(), {n}).clone();
};

// A member function defined out of its class.
struct Sample {
  std::vector<float> pixels;
  torch::Tensor image;
  void decode(int64_t n);
};
void Sample::decode(int64_t n) {
  std::vector<float> decoded(n, 0.f);
  image = torch::from_blob(decoded.data(), {n});
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'torch::from_blob' does not copy local 'decoded', which is destroyed when 'decode' returns, but the tensor is stored in member 'image'; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: image = torch::from_blob(decoded.data(), {n}).clone();
}
