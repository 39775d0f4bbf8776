// Mock of LibTorch 1.13 <c10/macros/Macros.h> (parse-only; see README.md).
#pragma once

// Standard library used by the whole mock, included once here. To keep the
// parse time of a lit test low, only the libstdc++ internal headers that
// define std::function, std::shared_ptr/std::unique_ptr and std::chrono
// durations are pulled in when available (the full <functional>, <memory> and
// <chrono> headers cost ~60 ms more); the declared entities are the same.
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>
#if defined(__GLIBCXX__) && __has_include(<bits/shared_ptr.h>)
#include <bits/shared_ptr.h>
#else
#endif
#if defined(__GLIBCXX__) && __has_include(<bits/std_function.h>)
#include <bits/std_function.h>
#else
#include <functional>
#endif
#if defined(__GLIBCXX__) && !_GLIBCXX_INLINE_VERSION
// Only std::chrono::milliseconds is named by the mock (DataLoaderOptions),
// and only as the argument of c10::optional<> (which needs no complete type).
// Declare it exactly as libstdc++ does instead of parsing <chrono> (~40 ms);
// a later #include <chrono> redeclares both compatibly.
#include <ratio>
namespace std {
namespace chrono {
template <typename _Rep, typename _Period>
struct duration;
using milliseconds = duration<int64_t, milli>;
} // namespace chrono
} // namespace std
#else
#include <chrono>
#endif

#define C10_API
#define TORCH_API
#define C10_NODISCARD [[nodiscard]]
#define C10_DEPRECATED_MESSAGE(message) [[deprecated(message)]]
#define C10_UNUSED __attribute__((__unused__))
#define C10_HOST_DEVICE
#define TORCH_CHECK(cond, ...) ((void)(cond))
#define AT_ERROR(...) ((void)0)

// As in the real header: the c10 namespace is rerouted into at and caffe2.
namespace c10 {}
namespace c10 {
namespace cuda {}
} // namespace c10
namespace caffe2 {
using namespace c10;
}
namespace at {
using namespace c10;
}
namespace at {
namespace cuda {
using namespace c10::cuda;
}
} // namespace at
