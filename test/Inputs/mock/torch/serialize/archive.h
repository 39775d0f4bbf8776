// Mock of LibTorch 1.13 <torch/serialize/archive.h>,
// <torch/serialize/output-archive.h> and <torch/serialize/input-archive.h>.
#pragma once

#include <torch/types.h>

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace c10 {
struct IValue;
} // namespace c10

namespace torch {
using at::Tensor;
namespace jit {
struct CompilationUnit;
struct Module;
} // namespace jit
} // namespace torch

namespace torch {
namespace serialize {

class TORCH_API OutputArchive final {
 public:
  explicit OutputArchive(std::shared_ptr<jit::CompilationUnit> cu);
  explicit OutputArchive();

  OutputArchive(OutputArchive&&) = default;
  OutputArchive& operator=(OutputArchive&&) = default;

  OutputArchive(OutputArchive&) = delete;
  OutputArchive& operator=(OutputArchive&) = delete;

  std::shared_ptr<jit::CompilationUnit> compilation_unit() const;

  void write(const std::string& key, const c10::IValue& ivalue);
  void write(
      const std::string& key,
      const Tensor& tensor,
      bool is_buffer = false);
  void write(const std::string& key, OutputArchive& nested_archive);

  void save_to(const std::string& filename);
  void save_to(std::ostream& stream);
  void save_to(const std::function<size_t(const void*, size_t)>& func);

  template <typename... Ts>
  void operator()(Ts&&... ts) {
    write(std::forward<Ts>(ts)...);
  }
};

class TORCH_API InputArchive final {
 public:
  InputArchive();

  InputArchive(InputArchive&&) = default;
  InputArchive& operator=(InputArchive&&) = default;

  InputArchive(InputArchive&) = delete;
  InputArchive& operator=(InputArchive&) = delete;

  ~InputArchive() = default;

  void read(const std::string& key, c10::IValue& ivalue);
  bool try_read(const std::string& key, c10::IValue& ivalue);
  bool try_read(const std::string& key, Tensor& tensor, bool is_buffer = false);
  void read(const std::string& key, Tensor& tensor, bool is_buffer = false);
  bool try_read(const std::string& key, InputArchive& archive);
  void read(const std::string& key, InputArchive& archive);

  void load_from(
      const std::string& filename,
      c10::optional<torch::Device> device = c10::nullopt);
  void load_from(
      std::istream& stream,
      c10::optional<torch::Device> device = c10::nullopt);
  void load_from(
      const char* data,
      size_t size,
      c10::optional<torch::Device> device = c10::nullopt);
  void load_from(
      const std::function<size_t(uint64_t pos, void* buf, size_t nbytes)>&
          read_func,
      const std::function<size_t(void)>& size_func,
      c10::optional<torch::Device> device = c10::nullopt);

  std::vector<std::string> keys();

  template <typename... Ts>
  void operator()(Ts&&... ts) {
    read(std::forward<Ts>(ts)...);
  }
};

} // namespace serialize
} // namespace torch
