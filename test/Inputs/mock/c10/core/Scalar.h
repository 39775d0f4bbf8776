// Mock of LibTorch 1.13 <c10/core/Scalar.h>.
#pragma once

#include <c10/core/ScalarType.h>

#include <cstdint>
#include <iosfwd>
#include <type_traits>

namespace c10 {

class C10_API Scalar {
 public:
  Scalar() : Scalar(int64_t(0)) {}
  ~Scalar() {}

  // DEFINE_IMPLICIT_CTOR over AT_FORALL_SCALAR_TYPES_AND3(Half, BFloat16,
  // ComplexHalf) and AT_FORALL_COMPLEX_TYPES.
  Scalar(uint8_t vv) {}
  Scalar(int8_t vv) {}
  Scalar(int16_t vv) {}
  Scalar(int vv) {}
  Scalar(int64_t vv) {}
  Scalar(float vv) {}
  Scalar(double vv) {}
  Scalar(at::Half vv) {}
  Scalar(at::BFloat16 vv) {}
  Scalar(c10::complex<at::Half> vv) {}
  Scalar(c10::complex<float> vv) {}
  Scalar(c10::complex<double> vv) {}

  template <
      typename T,
      typename std::enable_if<std::is_same<T, bool>::value, bool>::type* =
          nullptr>
  Scalar(T vv) {}

  Scalar(const Scalar& other) {}
  Scalar(Scalar&& rhs) noexcept {}
  Scalar& operator=(Scalar&& other) noexcept;
  Scalar& operator=(const Scalar& other);

  uint8_t toByte() const;
  int8_t toChar() const;
  int16_t toShort() const;
  int toInt() const;
  int64_t toLong() const;
  at::Half toHalf() const;
  float toFloat() const;
  double toDouble() const;
  c10::complex<at::Half> toComplexHalf() const;
  c10::complex<float> toComplexFloat() const;
  c10::complex<double> toComplexDouble() const;
  bool toBool() const;
  at::BFloat16 toBFloat16() const;

  template <typename T>
  T to() const;

  bool isFloatingPoint() const;
  bool isIntegral(bool includeBool) const;
  bool isComplex() const;
  bool isBoolean() const;

  Scalar operator-() const;
  Scalar conj() const;
  Scalar log() const;
  bool equal(bool num) const;
  ScalarType type() const;
};

C10_API std::ostream& operator<<(std::ostream& out, Scalar s);

} // namespace c10
