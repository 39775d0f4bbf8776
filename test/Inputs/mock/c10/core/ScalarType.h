// Mock of LibTorch 1.13 <c10/core/ScalarType.h>, plus the pieces of
// <c10/util/Half.h>, <c10/util/BFloat16.h>, <c10/util/complex.h>,
// <c10/util/typeid.h> (caffe2::TypeMeta), <c10/core/Layout.h> and
// <c10/core/MemoryFormat.h> it depends on.
#pragma once

#include <c10/macros/Macros.h>

#include <cstddef>
#include <cstdint>

namespace c10 {

struct alignas(2) Half {
  unsigned short x;
  Half() = default;
  C10_HOST_DEVICE Half(float value);
  C10_HOST_DEVICE operator float() const;
};

struct alignas(2) BFloat16 {
  uint16_t x;
  BFloat16() = default;
  C10_HOST_DEVICE BFloat16(float value);
  C10_HOST_DEVICE operator float() const;
};

template <typename T>
struct alignas(sizeof(T) * 2) complex {
  using value_type = T;
  T real_ = T(0);
  T imag_ = T(0);
  constexpr complex() = default;
  constexpr complex(const T& re, const T& im = T()) : real_(re), imag_(im) {}
  template <typename U>
  explicit constexpr complex(const complex<U>& other)
      : real_(other.real_), imag_(other.imag_) {}
  constexpr T real() const { return real_; }
  constexpr T imag() const { return imag_; }
};

enum class ScalarType : int8_t {
  Byte,
  Char,
  Short,
  Int,
  Long,
  Half,
  Float,
  Double,
  ComplexHalf,
  ComplexFloat,
  ComplexDouble,
  Bool,
  QInt8,
  QUInt8,
  QInt32,
  BFloat16,
  QUInt4x2,
  QUInt2x4,
  Undefined,
  NumOptions
};

constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kComplexHalf = ScalarType::ComplexHalf;
constexpr ScalarType kComplexFloat = ScalarType::ComplexFloat;
constexpr ScalarType kComplexDouble = ScalarType::ComplexDouble;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kQInt8 = ScalarType::QInt8;
constexpr ScalarType kQUInt8 = ScalarType::QUInt8;
constexpr ScalarType kQInt32 = ScalarType::QInt32;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
constexpr ScalarType kQUInt4x2 = ScalarType::QUInt4x2;
constexpr ScalarType kQUInt2x4 = ScalarType::QUInt2x4;

const char* toString(ScalarType t);
size_t elementSize(ScalarType t);
bool isIntegralType(ScalarType t, bool includeBool);
bool isFloatingType(ScalarType t);
bool isComplexType(ScalarType t);

enum class Layout : int8_t {
  Strided,
  Sparse,
  SparseCsr,
  Mkldnn,
  SparseCsc,
  SparseBsr,
  SparseBsc,
  NumOptions
};
constexpr auto kStrided = Layout::Strided;
constexpr auto kSparse = Layout::Sparse;
constexpr auto kSparseCsr = Layout::SparseCsr;
constexpr auto kMkldnn = Layout::Mkldnn;

enum class MemoryFormat : int8_t {
  Contiguous,
  Preserve,
  ChannelsLast,
  ChannelsLast3d,
  NumOptions
};

} // namespace c10

namespace caffe2 {
class TypeMeta final {
 public:
  TypeMeta() noexcept;
  TypeMeta(const TypeMeta& src) noexcept = default;
  TypeMeta& operator=(const TypeMeta& src) noexcept = default;
  size_t itemsize() const noexcept;
  const char* name() const noexcept;
  template <typename T>
  bool Match() const noexcept;
  template <typename T>
  static TypeMeta Make();
  static caffe2::TypeMeta fromScalarType(c10::ScalarType scalar_type);
  c10::ScalarType toScalarType();
  friend bool operator==(const TypeMeta lhs, const TypeMeta rhs) noexcept;
};
bool operator==(const TypeMeta lhs, const TypeMeta rhs) noexcept;
bool operator!=(const TypeMeta lhs, const TypeMeta rhs) noexcept;
} // namespace caffe2

namespace c10 {
// <c10/core/ScalarTypeToTypeMeta.h>
caffe2::TypeMeta scalarTypeToTypeMeta(ScalarType scalar_type);
ScalarType typeMetaToScalarType(caffe2::TypeMeta dtype);
static inline bool operator==(ScalarType t, caffe2::TypeMeta m) {
  return false;
}
static inline bool operator==(caffe2::TypeMeta m, ScalarType t) {
  return false;
}
static inline bool operator!=(ScalarType t, caffe2::TypeMeta m) {
  return true;
}
static inline bool operator!=(caffe2::TypeMeta m, ScalarType t) {
  return true;
}
} // namespace c10
