// Options: FactoryFunctions adds in-house from_blob-like wrappers (the first
// argument is the data pointer; a lambda or std::function argument is a
// deleter), StorageClasses adds classes that own their buffer (a cv::Mat-like
// image); without them both are silent; --dump-config shows what was set, and
// a value that is not a list of qualified names gets the default.
// RUN: %check_torch_tidy -check-suffixes=,OPT %s torch-from-blob-lifetime %t.mock -config="{CheckOptions: [{key: torch-from-blob-lifetime.FactoryFunctions, value: 'mylib::tensor_view'}, {key: torch-from-blob-lifetime.StorageClasses, value: '::imaging::Image'}]}" -- %mock_flags
// RUN: %check_torch_tidy -check-suffixes=,OPT %s torch-from-blob-lifetime %t.real -config="{CheckOptions: [{key: torch-from-blob-lifetime.FactoryFunctions, value: 'mylib::tensor_view'}, {key: torch-from-blob-lifetime.StorageClasses, value: '::imaging::Image'}]}" -- %real_flags
// RUN: %check_torch_tidy %s torch-from-blob-lifetime %t.default -- %mock_flags
// RUN: %check_torch_tidy -check-suffixes=,BAD %s torch-from-blob-lifetime %t.bad -config="{CheckOptions: [{key: torch-from-blob-lifetime.FactoryFunctions, value: 'mylib::tensor_view, mylib::other'}]}" -- %mock_flags
// RUN: %clang_tidy_torch -checks='-*,torch-from-blob-lifetime' -config="{CheckOptions: [{key: torch-from-blob-lifetime.FactoryFunctions, value: 'mylib::tensor_view'}, {key: torch-from-blob-lifetime.StorageClasses, value: 'a, b'}]}" --dump-config | %config_map | FileCheck %s --check-prefix=DUMP
// DUMP-DAG: torch-from-blob-lifetime.FactoryFunctions: 'mylib::tensor_view'
// DUMP-DAG: torch-from-blob-lifetime.StorageClasses: ''
// CHECK-MESSAGES-BAD: warning: invalid configuration value 'mylib::tensor_view, mylib::other' for option 'torch-from-blob-lifetime.FactoryFunctions'; expected a ';'-separated list of qualified names; using the default '' [clang-tidy-config]

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace mylib {
// Wraps a buffer without copying, like torch::from_blob.
torch::Tensor tensor_view(float *data, int64_t n);
torch::Tensor tensor_view(float *data, int64_t n,
                          std::function<void(void *)> deleter);
} // namespace mylib

namespace imaging {
// Owns its pixels; `data` points into them.
class Image {
public:
  explicit Image(int64_t n);
  ~Image();
  unsigned char *data;
  int64_t size() const;
};
class ColorImage : public Image {
public:
  using Image::Image;
};
} // namespace imaging

torch::Tensor builtin(int64_t n) {
  std::vector<float> v(n, 1.f);
  return torch::from_blob(v.data(), {n});
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'torch::from_blob' does not copy local 'v', which is destroyed when 'builtin' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES: return torch::from_blob(v.data(), {n}).clone();
}

torch::Tensor wrapped(int64_t n) {
  std::vector<float> v(n, 1.f);
  return mylib::tensor_view(v.data(), n);
  // CHECK-MESSAGES-OPT: :[[@LINE-1]]:10: warning: 'mylib::tensor_view' does not copy local 'v', which is destroyed when 'wrapped' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES-OPT: return mylib::tensor_view(v.data(), n).clone();
}

torch::Tensor wrapped_with_a_deleter(int64_t n) {
  std::vector<float> v(n, 1.f);
  return mylib::tensor_view(v.data(), n, [](void *) {});
}

torch::Tensor image(int64_t n) {
  imaging::ColorImage img(n);
  return torch::from_blob(img.data, {img.size()}, torch::kByte);
  // CHECK-MESSAGES-OPT: :[[@LINE-1]]:10: warning: 'torch::from_blob' does not copy local 'img', which is destroyed when 'image' returns, but the tensor is returned; call '.clone()' where the tensor escapes so that it owns its data [torch-from-blob-lifetime]
  // CHECK-FIXES-OPT: return torch::from_blob(img.data, {img.size()}, torch::kByte).clone();
}

torch::Tensor image_by_reference(const imaging::Image &img) {
  return torch::from_blob(img.data, {img.size()}, torch::kByte);
}
